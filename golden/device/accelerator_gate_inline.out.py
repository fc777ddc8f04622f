import torch
import torch_xla

device = (
    torch_xla.device()
)
model = torch.nn.Linear(4, 4).to(device)
model(torch.zeros(2, 4, device=device)).sum().backward()
