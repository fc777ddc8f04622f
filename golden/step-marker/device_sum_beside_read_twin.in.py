# Twin of device_sum_beside_read: the sums stay on the host (`.item()`), so nothing is carried
# from one batch to the next; the per-batch reads run each batch's graph, and no cut is added.
import torch


def evaluate(model, loader, criterion, device):
    total = 0.0
    losses = []
    preds = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += criterion(out, y).item()
            losses.append(criterion(out, y).item())
            preds.append(out.argmax(1).tolist())
    return total, losses, preds
