# torch.accelerator.set_device_index raises under torch-xla (torch.accelerator is not the XLA
# device): removed like torch.cuda.set_device; its value used is reported.
import torch


def setup(gpu):
    previous = torch.accelerator.set_device_index(gpu)
    return previous
