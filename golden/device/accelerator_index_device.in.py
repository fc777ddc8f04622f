# pytorch/examples FSDP2 and rpc shapes: the accelerator's type formatted with the process's
# index is the process's one device on Trainium, built whole as the target's device (never
# "xla:0:1"); printing the device is left alone.
import os

import torch
import torch.nn as nn


def setup():
    rank = int(os.environ["LOCAL_RANK"])
    if torch.accelerator.is_available():
        device_type = torch.accelerator.current_accelerator()
        device = torch.device(f"{device_type}:{rank}")
        print(f"Running on rank {rank} on device {device}")
    else:
        device = torch.device("cpu")
    return nn.Linear(8, 8).to(device)


def evaluate(model, num_gpus):
    if torch.accelerator.is_available() and num_gpus > 0:
        acc = torch.accelerator.current_accelerator()
        device = torch.device(f"{acc}:0")
    else:
        device = torch.device("cpu")
    return model.to(device)
