# A loop already ported to `.to(device)` on the XLA device, feeding a DataParallel model on it: the
# input is moved with the same arguments as the loop's move of the target.
import torch.nn as nn
import torch_xla


def validate(val_loader, model, device):
    for input, target in val_loader:
        target = target.to(device, non_blocking=True)
        print((model(input).argmax(1) == target).sum())


def main(net, val_loader):
    device = torch_xla.device()
    model = nn.DataParallel(net).to(device)
    validate(val_loader, model, torch_xla.device())
