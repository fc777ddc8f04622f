# Twin of own_cuda_method: a module subclass that overrides `cuda()` is still a module (it has
# `.to()`), and a name bound to the program's own class on one path and to a tensor on another
# is not certainly that class: both `.cuda()` calls are rewritten.
import torch
import torch_xla
from torch import nn


class Sampler(object):
    def __init__(self, n):
        self.table = torch.zeros(n)

    def cuda(self):
        self.table = self.table.to(torch_xla.device())


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def cuda(self):
        self.fc.weight.data.zero_()
        return super().to(torch_xla.device())


def build(use_table):
    head = Head()
    head.to(torch_xla.device())
    if use_table:
        source = Sampler(8)
    else:
        source = torch.zeros(8)
    source.to(torch_xla.device())
    return head, source
