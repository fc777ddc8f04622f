# Class: a legacy CUDA tensor type called with two or more sizes in code that runs when called
# (CutMix's PyramidNet pads its shortcut with `torch.cuda.FloatTensor(b, c, h, w).fill_(0)` in
# each residual block's forward): it raises `Found no NVIDIA driver` on Trainium, and becomes
# `torch.empty(sizes, dtype=<the type's dtype>, device=<target device>)`, one finding per call
# (not a second one for `.fill_`); also through a name bound only to the type (`LongT`).
# Twin: cuda_tensor_constructor_twin.
import torch
import torch.nn as nn
from torch.cuda import LongTensor


class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes):
        super().__init__()
        self.conv = nn.Conv2d(inplanes, planes, 3, padding=1)

    def forward(self, x):
        out = self.conv(x)
        shortcut = x
        featuremap_size = out.size()[2:4]
        batch_size = out.size()[0]
        residual_channel = out.size()[1]
        shortcut_channel = shortcut.size()[1]
        if residual_channel != shortcut_channel:
            padding = torch.autograd.Variable(torch.cuda.FloatTensor(batch_size, residual_channel - shortcut_channel, featuremap_size[0], featuremap_size[1]).fill_(0))
            out += torch.cat((shortcut, padding), 1)
        else:
            out += shortcut
        return out


def make_masks(n, h, w):
    mask = torch.cuda.ByteTensor(h, w).zero_()
    pairs = LongTensor(n, 2)
    flags = torch.cuda.BoolTensor(
        n,
        h,
    )
    return mask, pairs, flags, lambda k: torch.cuda.BFloat16Tensor(k, k)


LongT = torch.cuda.LongTensor


def make_index(n):
    return LongT(n, 2).zero_()
