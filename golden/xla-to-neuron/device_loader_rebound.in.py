# golden: target=neuron
"""The device loader rebinds the DataLoader's own name, as many real scripts write it, and its
length is read: the assignment goes, the loop moves each batch, len() is the DataLoader's."""
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader


def run(model, dataset, optimizer, use_xla):
    device = xm.xla_device()
    train_loader = DataLoader(dataset, batch_size=8, drop_last=True)
    print("batches:", len(train_loader))
    if use_xla:
        train_loader = pl.MpDeviceLoader(train_loader, device)
    steps = len(train_loader)
    for step, (x, y) in enumerate(train_loader):
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return steps
