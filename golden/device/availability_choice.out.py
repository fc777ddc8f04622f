import torch
import torch_xla

device = torch_xla.device()
name = "xla"
model = torch.nn.Linear(4, 2).to(name)
