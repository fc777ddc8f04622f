# Class: `DistributedSampler(num_replicas=dist.get_world_size(), rank=dist.get_rank())` in a module
# whose process group is made xla (here "nccl", rewritten by TRN143): the process group then gives
# the runtime's world size and rank, so TRN145's rewrite would change nothing and is not made.
import torch.distributed as dist
from torch.utils.data.distributed import DistributedSampler


def make_sampler(dataset, seed):
    dist.init_process_group("nccl")
    return DistributedSampler(
        dataset,
        num_replicas=dist.get_world_size(),
        rank=dist.get_rank(),
        shuffle=True,
        seed=seed,
    )
