import torch
import torch_xla

use_accel = True
if use_accel:
    device = torch_xla.device()
else:
    device = torch.device("cpu")
model = torch.nn.Linear(8, 8).to(device)
