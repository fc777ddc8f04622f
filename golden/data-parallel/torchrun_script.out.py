import os

import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def main():
    dist.init_process_group("xla", init_method="xla://")
    local_rank = int(os.environ["LOCAL_RANK"])
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
            xm.optimizer_step(optimizer)
            scheduler.step()
    dist.destroy_process_group()
