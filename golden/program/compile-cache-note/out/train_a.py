import torch
import torch_xla

model = torch.nn.Linear(4, 4).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch_xla.device()
for step in range(10):
    loss = model(torch.randn(2, 4).to(device)).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
