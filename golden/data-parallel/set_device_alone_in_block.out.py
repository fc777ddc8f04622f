# `torch.cuda.set_device` is removed; a block it leaves empty still holds `pass`.
import os

import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.nn.parallel import DistributedDataParallel as DDP


def main(model, loader, optimizer):
    dist.init_process_group("xla", init_method="xla://")
    local_rank = int(os.environ["LOCAL_RANK"])
    if local_rank >= 0:
        pass
    model = DDP(model, device_ids=[local_rank])
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
