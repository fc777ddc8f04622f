# Class: never half a port (the step marker's side). A loop that keeps a device value from one
# batch to the next - a sum of tensors (`total += loss.detach()`, as item-hoist's TRN121 writes
# it, whatever `total` started as) or a list of tensors (`losses.append(loss.detach())`) - needs
# its cut even though it also reads something on the host every batch; the cut goes before that
# read. Twin: device_sum_beside_read_twin (the same reads, the sums on the host: no cut).
import torch


def evaluate(model, loader, criterion, device):
    total = 0.0
    losses = []
    preds = []
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += criterion(out, y).detach()
            losses.append(criterion(out, y).detach())
            preds.append(out.argmax(1).tolist())
    return float(total), torch.stack(losses).tolist(), preds
