import torch
import torch_xla

device = torch.device("xla")
model = torch.nn.Linear(4, 4).to(device)
batch = torch.zeros(2, 4).to(device)
