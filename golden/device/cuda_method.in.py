import torch
import torch.nn as nn


def train(model: nn.Module, loader, optimizer):
    model = model.cuda()
    for x, y in loader:
        x = x.cuda(non_blocking=True)
        y = y.cuda()
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
