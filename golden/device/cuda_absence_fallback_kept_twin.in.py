# Class: an identity test conjoined with `not torch.cuda.is_available()`. Twin: the same test
# with no availability fallback beside it, choosing pinned memory for the loader, which the
# run drops: it becomes a test for the XLA device (TRN023).
import torch
from torch.utils.data import DataLoader


def make_loader(dataset, device):
    return DataLoader(dataset, batch_size=8, pin_memory=device.type == "cuda")
