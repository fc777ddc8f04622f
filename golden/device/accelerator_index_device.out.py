# pytorch/examples FSDP2 and rpc shapes: the accelerator's type formatted with the process's
# index is the process's one device on Trainium, built whole as the target's device (never
# "xla:0:1"), where it is bound, so its uses stay as they are; printing it is left alone.
import os

import torch
import torch.nn as nn
import torch_xla


def setup():
    rank = int(os.environ["LOCAL_RANK"])
    device_type = torch_xla.device()
    device = torch_xla.device()
    print(f"Running on rank {rank} on device {device}")
    model = nn.Linear(8, 8)
    model.to_empty(device=device)
    return model, torch.randint(0, 8, (4, 8), device=device)


def evaluate(model, num_gpus):
    if num_gpus > 0:
        acc = torch_xla.device()
        device = torch_xla.device()
    else:
        device = torch.device("cpu")
    return model.to(device)
