import torch
import torch_xla
import torch_xla.core.xla_model as xm
from torch_xla import sync as graph_cut


def train(model, loader, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        xm.mark_step()
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()
        torch_xla.sync()
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        optimizer.step()
        graph_cut()
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
        xm.optimizer_step(optimizer, barrier=True)
    for x, y in loader:
        with torch_xla.step():
            torch.nn.functional.mse_loss(model(x.to(device)), y.to(device)).backward()
            optimizer.step()
