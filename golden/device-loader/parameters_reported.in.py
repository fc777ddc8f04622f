import torch


def train_epoch(model, loader, optimizer, device):
    # Neither `loader` nor `device` is known here: reported, left to the step marker.
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
