import torch


def train(model, loader, optimizer, device):
    for x, y in loader: optimizer.zero_grad(); model(x.to(device)).sum().backward(); optimizer.step()
    for x, y in loader: model(x.to(device)).sum().backward(); optimizer.step(); optimizer.zero_grad();
