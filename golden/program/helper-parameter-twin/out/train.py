import torch
import torch_xla

from ops import grad_norm, uniform
from steps import train_step

model = torch.nn.Linear(4, 4).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    train_step(model, optimizer, uniform((2, 4), "xla"), "cuda")
    norm = grad_norm(list(model.parameters()))
