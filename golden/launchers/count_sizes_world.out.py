import torch
import torch.distributed as dist
import torch_xla.runtime as xr
from torch.utils.data import DistributedSampler


def setup(dataset, rank):
    world_size = xr.world_size()
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    return DistributedSampler(dataset, num_replicas=world_size, rank=rank)
