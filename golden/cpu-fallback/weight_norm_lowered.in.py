# Must not fire: weight norm over a `dim` torch writes out in lowered ops (`dim=None`, a negative
# dim, a dim that is not the weight's last), `spectral_norm`, `remove_weight_norm`, a
# `weight_norm` that is not torch's (a local function, another library's), a variable named
# `weight_norm` (LARS), and a parametrization that writes `g * v / ||v||` out.
import torch
import torch.nn as nn
from mylib.layers import weight_norm as wn
from torch.nn.utils import parametrize, remove_weight_norm, spectral_norm
from torch.nn.utils import weight_norm as torch_weight_norm


def weight_norm(module):
    return module


class WeightNorm(nn.Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = dim

    def forward(self, g, v):
        return g * v / torch.norm_except_dim(v, 2, self.dim)

    def right_inverse(self, weight):
        return torch.norm_except_dim(weight, 2, self.dim), weight


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.a = torch_weight_norm(nn.Conv1d(n, n, 3), dim=None)
        self.b = torch_weight_norm(nn.Conv1d(n, n, 3), dim=1)
        self.c = torch_weight_norm(nn.Linear(n, n), dim=-1)
        self.d = spectral_norm(nn.Linear(n, n))
        self.e = weight_norm(nn.Linear(n, n))
        self.f = wn(nn.Linear(n, n))
        self.g = nn.Conv1d(n, n, 3)
        parametrize.register_parametrization(self.g, "weight", WeightNorm(), unsafe=True)

    def forward(self, x):
        return self.g(self.b(self.a(x)))

    def remove_weight_norm(self):
        remove_weight_norm(self.a)


class LARS(torch.optim.Optimizer):
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                weight_norm = torch.norm(p.data)
                grad_norm = torch.norm(p.grad.data)
                p.data.add_(p.grad.data * weight_norm / grad_norm, alpha=-group["lr"])
