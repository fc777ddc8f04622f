import os

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    sampler = DistributedSampler(
        train_set, num_replicas=dist.get_world_size(), rank=dist.get_rank(), shuffle=True
    )
    loader = DataLoader(train_set, batch_size=32, sampler=sampler, drop_last=True)
    for epoch in range(10):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
    dist.destroy_process_group()
