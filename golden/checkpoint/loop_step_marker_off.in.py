# golden: select=TRN32
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def train(model, optimizer, loader, loss_fn, device):
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        optimizer.step()
        if step % 100 == 0:
            torch.save(model.state_dict(), "ckpt.pt")


def train_marked(model, optimizer, loader, loss_fn):
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        optimizer.step()
        xm.mark_step()
        if step % 100 == 0:
            torch.save(model.state_dict(), "ckpt.pt")


def train_device_loader(model, optimizer, loader, loss_fn, device):
    for step, (x, y) in enumerate(pl.MpDeviceLoader(loader, device)):
        loss_fn(model(x), y).backward()
        optimizer.step()
        if step % 100 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
