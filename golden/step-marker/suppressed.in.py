import torch


def train(model, loader, optimizer, device):
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()  # trncodemod: ignore[TRN101]
