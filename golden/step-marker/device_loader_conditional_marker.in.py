import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, optimizer, device):
    device_loader = pl.MpDeviceLoader(loader, device)
    for step, (x, y) in enumerate(device_loader):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        if step % 100 == 0:
            # The MpDeviceLoader already cut at every batch: this one only flushes for logging.
            xm.mark_step()
