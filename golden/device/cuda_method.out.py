import torch
import torch.nn as nn
import torch_xla


def train(model: nn.Module, loader, optimizer):
    model = model.to(torch_xla.device())
    device = torch_xla.device()
    for x, y in loader:
        x = x.to(device, non_blocking=True)
        y = y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
