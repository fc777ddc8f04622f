# Twin of device_sum_beside_read: the sum stays on the host (`.item()`), so nothing is carried
# from one batch to the next; the one per-batch read runs the batch's graph, and no cut is added.
import torch


def evaluate(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += criterion(out, y).item()
    return total
