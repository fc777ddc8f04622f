import torch
from torch import nn

from linear_cpu import Net

model = Net()
if torch.cuda.is_available():
    model = model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    x = torch.randn(2, 4)
    if torch.cuda.is_available():
        x = x.cuda()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
