import torch
import torch_xla
from torch.utils.data import DataLoader

device = torch_xla.device()
loader = DataLoader(ds, batch_size=16, drop_last=True)
for x, y, ids in loader:
    x = x.view(x.size(0), -1).to(device)
    y = y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    seen.extend(ids.tolist())

for x, y in loader:
    x = x.to(device, dtype=torch.bfloat16)
    torch.nn.functional.mse_loss(model(x), y.to(device)).backward()
    optimizer.step()
