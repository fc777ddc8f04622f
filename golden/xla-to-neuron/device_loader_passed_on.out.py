# golden: target=neuron
"""A device loader handed to a function, and one whose batch is not unpacked: the tool cannot
see where the batches are used, so each is a blocker and torch_xla stays."""
import torch
import torch_xla.distributed.parallel_loader as pl


def train_loop(loader, model, optimizer):
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()


def run(model, loader, optimizer):
    device = torch.device("neuron")
    train_loop(pl.MpDeviceLoader(loader, device), model, optimizer)
    for batch in pl.MpDeviceLoader(loader, device):
        model(**batch)
