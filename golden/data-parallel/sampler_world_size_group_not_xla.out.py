# Twin of sampler_world_size_under_xla_group: the process group's backend is a value the tool does
# not rewrite (TRN143 reports it), so it may stay nccl or gloo: the sampler takes the runtime's
# world size and rank (TRN145).
import torch.distributed as dist
import torch_xla.runtime as xr
from torch.utils.data.distributed import DistributedSampler


def make_sampler(dataset, seed, backend):
    dist.init_process_group(backend)
    return DistributedSampler(
        dataset,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
        seed=seed,
    )
