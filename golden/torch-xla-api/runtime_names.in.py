import torch
import torch_xla.core.xla_model as xm
from torch.utils.data.distributed import DistributedSampler


def make_sampler(dataset):
    world_size = xm.xrt_world_size()
    return DistributedSampler(dataset, num_replicas=world_size, rank=xm.get_ordinal(), shuffle=True)


def log(msg):
    if xm.get_ordinal() == 0:
        print(msg)
    xm.save({}, "x.pt")
