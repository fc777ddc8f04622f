import torch
import torch_xla
from torch.utils.data import DataLoader

device = torch_xla.device()
loader = DataLoader(ds, batch_size=16, drop_last=True)
for x, y in loader:  # trncodemod: ignore[TRN131]
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
