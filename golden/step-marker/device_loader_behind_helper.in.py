import torch
import torch_xla.distributed.parallel_loader as pl


def make_device_loader(dataset, device):
    loader = torch.utils.data.DataLoader(dataset, batch_size=32, drop_last=True)
    return pl.MpDeviceLoader(loader, device)


def train(model, dataset, optimizer, device):
    train_device_loader = make_device_loader(dataset, device)
    for x, y in train_device_loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
