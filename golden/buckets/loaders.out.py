import torch
import torch_xla.distributed.parallel_loader as pl
from torch.utils import data
from tqdm import tqdm

model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
device = "xla"
train_set = data.TensorDataset(torch.randn(100, 4), torch.randint(0, 2, (100,)))
test_set = data.TensorDataset(torch.randn(30, 4), torch.randint(0, 2, (30,)))

loader = data.DataLoader(train_set, batch_size=16, shuffle=True, drop_last=True)
held_out = data.DataLoader(test_set, batch_size=16)
device_loader = pl.MpDeviceLoader(loader, device)

for epoch in range(2):
    for step, (x, y) in enumerate(tqdm(device_loader)):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()

with torch.no_grad():
    for x, y in held_out:
        x, y = x.to(device), y.to(device)
        correct = (model(x).argmax(1) == y).sum()
