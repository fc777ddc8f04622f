# pytorch/examples FSDP2 and rpc shapes: the accelerator's type formatted with the process's
# index is the process's one device on Trainium, built whole as the target's device (never
# "xla:0:1"); printing the device is left alone.
import os

import torch
import torch.nn as nn
import torch_xla


def setup():
    rank = int(os.environ["LOCAL_RANK"])
    device_type = torch_xla.device()
    device = torch_xla.device()
    print(f"Running on rank {rank} on device {device}")
    return nn.Linear(8, 8).to(device)


def evaluate(model, num_gpus):
    if num_gpus > 0:
        acc = torch_xla.device()
        device = torch_xla.device()
    else:
        device = torch.device("cpu")
    return model.to(device)
