import torch
import torch_xla
from torch import nn

model = nn.Conv2d(1, 4, 3)
model = model.to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch_xla.device()
for _ in range(10):
    x = torch.randn(2, 1, 8, 8)
    x = x.to(device)
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
