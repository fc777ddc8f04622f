import torch


def train(model, loader, optimizer, device):
    for x, y in loader:
        try:
            if x is None:
                continue
            torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
            optimizer.step()
        finally:
            optimizer.zero_grad()
            if not torch.isfinite(x).all():
                continue
