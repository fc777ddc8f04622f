import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

device = torch_xla.device()
loader = DataLoader(ds, batch_size=16, drop_last=True)

# Ported by hand with an explicit marker: left alone.
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    xm.mark_step()

# Already a device loader.
device_loader = pl.MpDeviceLoader(loader, device)
for x, y in device_loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.optimizer_step(optimizer)

# Batches already on the device: nothing moves.
for x, y in cached_batches:
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
