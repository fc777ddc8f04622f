import torch
import torch_xla

# Only the branch taken on the accelerator stays.
device = torch_xla.device()
model = torch.nn.Linear(4, 4).to(device)
model(torch.zeros(2, 4, device=device)).sum().backward()
