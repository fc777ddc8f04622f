# golden: target=xla-2.1
import torch
import torch_xla.core.xla_model as xm


def train(model, loader, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        xm.mark_step()
