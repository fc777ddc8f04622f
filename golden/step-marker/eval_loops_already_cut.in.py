# Loops that already cut the graph once per iteration get no marker: an evaluation loop over an
# MpDeviceLoader, one under torch_xla.step() or StepTrace, one with its own sync, and training
# steps cut by xm.optimizer_step(..., barrier=True) or an MpDeviceLoader bound to a name.
import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.debug.profiler as xp


def evaluate(model, loader, device):
    model.eval()
    total = 0
    with torch.no_grad():
        for data, target in pl.MpDeviceLoader(loader, device):
            out = model(data)
            total += (out.argmax(1) == target).sum()
    return total


def evaluate_step(model, loader, device):
    model.eval()
    with torch.no_grad():
        for data, target in loader:
            with torch_xla.step():
                data, target = data.to(device), target.to(device)
                out = model(data)


def evaluate_trace(model, loader, device):
    with torch.no_grad():
        for step, (data, target) in enumerate(loader):
            with xp.StepTrace("eval", step_num=step):
                data, target = data.to(device), target.to(device)
                out = model(data)


def evaluate_sync(model, loader, device):
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            out = model(data)
            torch_xla.sync()


def train(model, loader, optimizer, device):
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        loss = model(data).sum()
        loss.backward()
        xm.optimizer_step(optimizer, barrier=True)


def train_loader_var(model, loader, optimizer, device):
    train_device_loader = pl.MpDeviceLoader(loader, device)
    for data, target in train_device_loader:
        loss = model(data).sum()
        loss.backward()
        optimizer.step()
