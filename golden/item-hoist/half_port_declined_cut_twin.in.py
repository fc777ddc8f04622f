# golden: select=TRN12,TRN10
# Twin of half_port_declined_cut: the same sums in loops that get their graph cut (a marker at
# the top of the body, or the one the step marker adds), so they move onto the device.
import torch
import torch_xla


def evaluate_marked(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += criterion(out, y).item()
            torch_xla.sync()
    return total


def evaluate(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            total += criterion(model(x), y).item()
    return total
