# Class: `DistributedSampler(num_replicas=dist.get_world_size(), rank=dist.get_rank())` in a module
# whose process group is made xla (here "nccl", rewritten by TRN143): the process group then gives
# the runtime's world size and rank, so TRN145's rewrite would change nothing and is not made.
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.utils.data.distributed import DistributedSampler


def make_sampler(dataset, seed):
    dist.init_process_group("xla", init_method="xla://")
    return DistributedSampler(
        dataset,
        num_replicas=dist.get_world_size(),
        rank=dist.get_rank(),
        shuffle=True,
        seed=seed,
    )
