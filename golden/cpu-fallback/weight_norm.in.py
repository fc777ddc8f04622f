# Weight norm in a model's layers: torch's `weight_norm` (both APIs) runs the fused
# `aten::_weight_norm_interface` on the CPU in every training step for `dim=0` (the default) or the
# weight's last dimension; reported once per call, and where the function is passed on to be
# called under another name.
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm, weight_norm
from torch.nn.utils.parametrizations import weight_norm as parametrized_weight_norm


class TemporalBlock(nn.Module):
    def __init__(self, n_in, n_out, kernel_size, dilation, padding):
        super().__init__()
        self.conv1 = weight_norm(
            nn.Conv1d(n_in, n_out, kernel_size, padding=padding, dilation=dilation)
        )
        self.conv2 = parametrized_weight_norm(nn.Conv1d(n_out, n_out, kernel_size))
        self.head = torch.nn.utils.weight_norm(nn.Linear(n_out, 1), dim=1)
        self.last = weight_norm(nn.Conv1d(n_out, n_out, 1), dim=2)
        self.scale = weight_norm(nn.Linear(n_out, n_out), name="bias")

    def forward(self, x):
        return self.head(self.conv2(self.conv1(x)).mean(-1))


class Discriminator(nn.Module):
    def __init__(self, use_spectral_norm=False):
        super().__init__()
        norm_f = weight_norm if use_spectral_norm is False else spectral_norm
        self.convs = nn.ModuleList([norm_f(nn.Conv2d(1, 32, (5, 1))), norm_f(nn.Conv2d(32, 1, 3))])

    def forward(self, x):
        for conv in self.convs:
            x = conv(x)
        return normed(x, x.norm())


def normed(v, g):
    return torch._weight_norm(v, g, 0)
