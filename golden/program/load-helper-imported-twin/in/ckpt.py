# Twin of load-helper-imported: the device handed to the helper is the CPU by design (a
# script that exports the model on the host), which torch.load restores to: nothing to report.
import torch


def load_checkpoint(path, device):
    return torch.load(path, map_location=device)
