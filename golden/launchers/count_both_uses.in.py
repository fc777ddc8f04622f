import torch
from torch.utils.data import DistributedSampler


def setup(dataset, model, rank):
    n = torch.cuda.device_count()
    if n > 1:
        model = torch.nn.DataParallel(model)
    return model, DistributedSampler(dataset, num_replicas=n, rank=rank)
