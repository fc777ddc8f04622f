import torch
import torch_xla


def train(model, loader, optimizer):
    # No device variable in sight: the device is bound once, before the loop.
    device = torch_xla.device()
    for epoch in range(2):
        for x, y in loader:
            x, y = x.to(device), y.to(device, non_blocking=True)
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
