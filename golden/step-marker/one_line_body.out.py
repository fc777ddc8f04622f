import torch
import torch_xla


def train(model, loader, optimizer, device):
    for x, y in loader: optimizer.zero_grad(); model(x.to(device)).sum().backward(); optimizer.step(); torch_xla.sync()
    for x, y in loader: model(x.to(device)).sum().backward(); optimizer.step(); torch_xla.sync(); optimizer.zero_grad();
