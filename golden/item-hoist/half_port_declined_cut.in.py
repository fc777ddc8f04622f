# golden: select=TRN12,TRN10
# Class: never half a port. A value moved onto the device to be accumulated (an evaluation loss
# sum) needs its loop's graph cut; where the cut is declined (the loop's only marker runs on some
# iterations, TRN102 is suppressed on the loop), the accumulator stays on the host and its
# `.item()` stays: summed on the device without a cut, the pending graph would grow by one
# forward pass a batch. Twin: half_port_declined_cut_twin (the loops get their cut: moved).
import torch
import torch_xla


def evaluate_marked_sometimes(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            out = model(x)
            total += criterion(out, y).item()
            if step % 10 == 0:
                torch_xla.sync()
    return total


def evaluate_suppressed(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:  # noqa: TRN102
            x, y = x.to(device), y.to(device)
            total += criterion(model(x), y).item()
    return total
