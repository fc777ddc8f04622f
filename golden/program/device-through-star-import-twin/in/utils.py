# Twin of device-through-star-import: model.py takes `torch` from a star import of a module
# not given (torchhelpers), so what the name is cannot be known: its device choice is not
# rewritten, and since train.py and utils.py move to the device, it is a blocker (TRN003).
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def indices(n):
    return torch.arange(n).to(device)
