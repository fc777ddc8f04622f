from functools import partial
from itertools import cycle, islice

import torch
import torch.nn as nn


class Reversible(torch.autograd.Function):
    """Recomputes its forward in the backward pass instead of keeping activations."""

    @staticmethod
    def forward(ctx, x, block):
        ctx.block = block
        ctx.save_for_backward(x)
        with torch.no_grad():
            return block(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            y = ctx.block(x)
            torch.autograd.backward(y, dy)
        return x.grad, None


class Full(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return Reversible.apply(x, self.proj)


class Axial(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        return self.proj(x).relu()


def build(kinds, depth=2):
    layers = []
    for kind in islice(cycle(kinds), depth):
        if kind == "full":
            layer = partial(Full)
        else:
            layer = Axial
        layers.append(layer())
    return nn.Sequential(*layers)
