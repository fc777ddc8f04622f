import torch


def train(model, optimizer, loader, loss_fn):
    for x, y in loader:
        loss_fn(model(x), y).backward()
        optimizer.step()
