# golden: select=TRN32,TRN101
import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(model, optimizer, loader, loss_fn):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()
        if step % 1000 == 0:
            xm.save(model.state_dict(), f"ckpt_{step}.pt")


def train_save_first(model, optimizer, loader, loss_fn):
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        if step % 1000 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
        optimizer.step()
        torch_xla.sync()


def train_accumulate(model, optimizer, loader, loss_fn):
    for step, (x, y) in enumerate(loader):
        loss_fn(model(x), y).backward()
        if (step + 1) % 4 == 0:
            optimizer.step()
            torch_xla.sync()
            optimizer.zero_grad()
            xm.save(model.state_dict(), "ckpt.pt")


def train_epochs(model, optimizer, loader, loss_fn, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss_fn(model(x), y).backward()
            optimizer.step()
            torch_xla.sync()
        if epoch % 2 == 0:
            torch_xla.sync()
            xm.save({"model": model.state_dict(), "epoch": epoch}, "epoch.pt")
