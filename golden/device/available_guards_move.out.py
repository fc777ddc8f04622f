import torch
import torch_xla

model = torch.nn.Linear(4, 4)
use_cuda = True
if use_cuda:
    model = model.to(torch_xla.device())
device = torch_xla.device()
for step in range(10):
    x = torch.randn(2, 4)
    x = x.to(device)
    model(x).sum().backward()
