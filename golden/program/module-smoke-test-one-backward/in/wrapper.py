"""Class: a library module whose `__main__` block is a smoke test: one forward pass, one
`loss.backward()`, no optimizer step and no loop. It computes gradients once and trains nothing:
"no step", and no blocker for the model it builds on the CPU. A device read from the input
(`dim, device = x.shape[-1], x.device`) decides no training device (no TRN026)."""

import torch
from torch import nn


class Wrapper(nn.Module):
    def __init__(self, net, dim):
        super().__init__()
        self.net = net
        self.proj = nn.Linear(dim, dim)

    @staticmethod
    def reg_loss(x, num_slices=16):
        dim, device = x.shape[-1], x.device
        projections = torch.randn((num_slices, dim), device=device)
        return (x @ projections.t()).pow(2).mean()

    def forward(self, x):
        hidden = self.proj(self.net(x))
        return hidden.pow(2).mean() + self.reg_loss(hidden)


if __name__ == "__main__":
    model = Wrapper(nn.Linear(8, 8), dim=8)
    x = torch.randn(2, 8)
    loss = model(x)
    assert loss.ndim == 0, "loss must be a scalar"
    loss.backward()
