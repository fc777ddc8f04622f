# golden: select=TRN00,TRN021,TRN022,TRN023,TRN024,TRN026,TRN046,TRN047,TRN143,TRN311,TRN312
# The twin of condition_selects_cuda_only: what these tests select or guard runs on Trainium
# (autocast, a plain move, an NCCL group TRN143 makes an XLA one in the same run), so each test
# becomes a test for the XLA device.
from contextlib import nullcontext

import torch
import torch.distributed as dist


def amp(device_type):
    return torch.autocast(device_type, dtype=torch.bfloat16) if device_type == "cuda" else nullcontext()


def place(x, device):
    if device.type != "cuda":
        return x
    else:
        return x.to(device, non_blocking=True)


def init(ddp, device_type):
    if ddp and device_type == "cuda":
        dist.init_process_group(backend="nccl")
    return device_type
