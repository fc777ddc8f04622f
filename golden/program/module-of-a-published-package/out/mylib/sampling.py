import collections
import collections.abc

import torch
import torch_xla
from torch import nn
from torch.amp import autocast


def orthogonal(x, y):
    x, y = x.double(), y.double()
    unit = nn.functional.normalize(y, dim=-1)
    return (x - (x * unit).sum(dim=-1, keepdim=True) * unit).float()


def flatten(values):
    if isinstance(values, collections.abc.Sequence):
        return [v for value in values for v in flatten(value)]
    return [values]


class Sampler(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    @autocast("cuda", enabled=False)
    @torch.no_grad()
    def generate(self, start, steps):
        out = start.to(torch_xla.device())
        for _ in range(steps):
            logits = self.net(out)
            out = torch.cat((out, logits.argmax(dim=-1, keepdim=True)), dim=-1)
        return out
