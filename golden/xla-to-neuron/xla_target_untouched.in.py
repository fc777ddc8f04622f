# golden: target=xla-2.9
"""On an XLA target the pass does not run: torch-xla code is the target's own."""
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, optimizer):
    device = torch_xla.device()
    for x, y in pl.MpDeviceLoader(loader, device):
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
