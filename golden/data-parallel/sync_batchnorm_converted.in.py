# Class: `nn.SyncBatchNorm.convert_sync_batchnorm(model)` in a data-parallel file that trains: on
# the XLA device SyncBatchNorm raises at the first training forward (TRN052, a blocker; nothing
# rewritten: dropping the conversion changes the numerics).
import os

import torch
import torch.distributed as dist
from torch import nn


def main():
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)).cuda(rank)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        x = torch.randn(8, 4).cuda(rank)
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
