# golden: select=TRN00,TRN13,TRN10
import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

device = torch_xla.device()
train_loader = DataLoader(train_set, batch_size=32, shuffle=True, drop_last=True)
test_loader = DataLoader(test_set, batch_size=64)
model = Net().to(device)


def evaluate(model, loader, device):
    # `loader` and `device` are parameters; the one call passes a DataLoader and the XLA device.
    with torch.no_grad():
        for x, y in pl.MpDeviceLoader(loader, device):
            correct = (model(x).argmax(1) == y).sum()
    return correct


for epoch in range(2):
    for x, y in pl.MpDeviceLoader(train_loader, device):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    evaluate(model, test_loader, device)
