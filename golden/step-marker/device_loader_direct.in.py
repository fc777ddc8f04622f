import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch_xla.distributed.parallel_loader import MpDeviceLoader as DeviceLoader


def train(model, loader, optimizer, device):
    for x, y in pl.MpDeviceLoader(loader, device):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    for step, (x, y) in enumerate(DeviceLoader(loader, device)):
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    for x, y in pl.ParallelLoader(loader, [device]).per_device_loader(device):
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
