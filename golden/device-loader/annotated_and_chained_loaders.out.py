# A loader bound with an annotation, or in a chained assignment, is still only a DataLoader.
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

device = torch_xla.device()
train_loader: DataLoader = DataLoader(train_set, batch_size=32, drop_last=True)
eval_loader = last_loader = DataLoader(eval_set, batch_size=32, drop_last=True)


def train(model, optimizer):
    for x, y in pl.MpDeviceLoader(train_loader, device):
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    for x, y in pl.MpDeviceLoader(eval_loader, device):
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
