# Aliased names and the collections helpers of torch 1.8's _six.
import torch
from torch._six import container_abcs, int_classes as INTS, nan as NAN


def flatten(x):
    if isinstance(x, container_abcs.Mapping):
        return [v for v in x.values()]
    if isinstance(x, INTS):
        return [torch.tensor(x)]
    return [torch.tensor(NAN)]
