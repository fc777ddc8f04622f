# Class: `.cuda()` called on an object of the program's own class that defines its own
# `cuda()` and is not a module or tensor (an alias-method sampler that keeps its tables on the
# GPU). The class has no `.to()`: `.to(device)` raised AttributeError when the loss was built
# (measured at first sight in a contrastive-distillation memory bank). The call is kept, and the
# class's `cuda()` body is ported where it is defined. Twin: own_cuda_method_twin.
import torch
from torch import nn


class AliasMethod(object):
    def __init__(self, probs):
        self.prob = torch.zeros(len(probs))
        self.alias = torch.LongTensor([0] * len(probs))

    def cuda(self):
        self.prob = self.prob.cuda()
        self.alias = self.alias.cuda()

    def draw(self, n):
        kk = torch.zeros(n, dtype=torch.long, device=self.prob.device).random_(0, self.alias.size(0))
        return self.alias.index_select(0, kk)


class ContrastMemory(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.multinomial = AliasMethod(torch.ones(size))
        self.multinomial.cuda()
        self.register_buffer("memory", torch.rand(size, 16))

    def forward(self, v, k):
        return self.memory[self.multinomial.draw(k)] @ v.t()
