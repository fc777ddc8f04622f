import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

device = torch_xla.device()
loader = DataLoader(ds, batch_size=16, drop_last=True)

# Ported by hand for one device, with its own marker (no --scale-out): left alone.
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    xm.mark_step()

# Cut only every `accumulation` batches: the loader would cut at every one, so left alone.
for step, (x, y) in enumerate(loader):
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    if (step + 1) % accumulation == 0:
        optimizer.step()
        xm.mark_step()

# Two cuts per step: left alone.
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.mark_step()
    optimizer.step()
    xm.mark_step()

# The optimizer step cuts the graph itself: left alone.
for x, y in loader:
    x, y = x.to(device), y.to(device)
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.optimizer_step(optimizer, barrier=True)

# Already a device loader.
device_loader = pl.MpDeviceLoader(loader, device)
for x, y in device_loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.optimizer_step(optimizer)

# Batches already on the device: nothing moves.
for x, y in cached_batches:
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
