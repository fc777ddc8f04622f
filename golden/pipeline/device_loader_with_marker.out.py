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
    # `loader` and `device` are parameters: no device loader, so the step marker cuts the graph.
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct = (model(x).argmax(1) == y).sum()
            torch_xla.sync()
    return correct


for epoch in range(2):
    for x, y in pl.MpDeviceLoader(train_loader, device):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    evaluate(model, test_loader, device)
