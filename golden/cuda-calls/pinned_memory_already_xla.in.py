# Already written for Neuron (NxD's tutorials keep pin_memory=True): the loader only warns that
# pinned memory is not used, so its option is left as its author wrote it.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader


def make_loader(dataset):
    device = torch_xla.device()
    loader = DataLoader(dataset, batch_size=32, pin_memory=True, drop_last=True)
    return pl.MpDeviceLoader(loader, device)
