import torch
import torch_xla

device = torch_xla.device()  # cuda:0
model = torch.nn.Linear(4, 4).to(device)
for step in range(10):
    x = torch.randn(2, 4).to(device)
    model(x).sum().backward()
