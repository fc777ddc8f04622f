# golden: target=neuron
# TorchNeuron registers as the accelerator: torch.accelerator calls are left as they are.
import torch


def setup(gpu):
    if gpu is not None:
        torch.accelerator.set_device_index(gpu)
