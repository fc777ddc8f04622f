import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler

model = torch.nn.Linear(4, 2)
optimizer = torch.optim.AdamW(model.parameters())
dataset = torch.utils.data.TensorDataset(torch.randn(64, 4))

explicit = DataLoader(dataset, batch_size=32, shuffle=True, drop_last=False)
one_at_a_time = DataLoader(dataset, shuffle=True)
sampled = DataLoader(dataset, batch_sampler=BatchSampler(RandomSampler(dataset), 32, False))
unnamed = DataLoader(dataset, batch_size=32)

for (x,) in explicit:
    model(x).sum().backward()
    optimizer.step()
for (x,) in one_at_a_time:
    model(x).sum().backward()
    optimizer.step()
for (x,) in sampled:
    model(x).sum().backward()
    optimizer.step()
