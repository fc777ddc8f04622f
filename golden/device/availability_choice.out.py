import torch
import torch_xla

device = torch.device("xla")
name = "xla"
model = torch.nn.Linear(4, 2).to(name)
