import torch
import torch_xla
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=16, drop_last=True)
if use_cpu:
    device = torch.device("cpu")
else:
    device = torch_xla.device()
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
