# golden: target=neuron
"""MpDeviceLoader, assigned and iterated through enumerate, and iterated directly in the eval
loop: the plain DataLoader, and each batch moved at the top of the loop."""
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def run(model, train_loader, eval_loader, optimizer, loss_fn):
    device = xm.xla_device()
    model.to(device)
    train_device_loader = pl.MpDeviceLoader(train_loader, device)
    for epoch in range(2):
        for idx, (data, target) in enumerate(train_device_loader):
            optimizer.zero_grad()
            loss = loss_fn(model(data), target)
            loss.backward()
            optimizer.step()
    correct = 0
    with torch.no_grad():
        for data, target in pl.MpDeviceLoader(eval_loader, device):
            correct += model(data).argmax(1).eq(target).sum()
    return correct
