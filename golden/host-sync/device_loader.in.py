# The targets of a loop over a device loader are device tensors; a plain loader's unmoved batch
# stays on the host, so its `.cpu()` is free.
import torch
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, optimizer, device):
    device_loader = pl.MpDeviceLoader(loader, device)
    for x, y in device_loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        print(y)
        labels = y.cpu()


def train_host_labels(model, loader, optimizer, device):
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        labels = y.cpu()
