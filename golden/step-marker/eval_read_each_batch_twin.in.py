# Twin of eval_read_each_batch: the loop reads one value on the host every batch
# (`float(loss)`, `.cpu().numpy()`: one transfer) and carries nothing on the device from one
# batch to the next (`x` is rebound by the `for` itself): the read runs the batch's graph once,
# and no cut is added (one would only run the forward pass again).
import numpy as np
import torch


def evaluate(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += float(criterion(out, y))
    return total / len(loader)


def predict(model, loader, device):
    preds = []
    with torch.no_grad():
        for x, _ in loader:
            x = x.to(device)
            out = model(x)
            preds.append(out.argmax(1).cpu().numpy())
    return np.concatenate(preds)
