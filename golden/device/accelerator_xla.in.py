import torch

use_accel = torch.accelerator.is_available()
if use_accel:
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")
model = torch.nn.Linear(8, 8).to(device)
