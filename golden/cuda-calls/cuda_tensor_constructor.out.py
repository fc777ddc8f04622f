# Class: a legacy CUDA tensor type called with two or more sizes in code that runs when called
# (CutMix's PyramidNet pads its shortcut with `torch.cuda.FloatTensor(b, c, h, w).fill_(0)` in
# each residual block's forward): it raises `Found no NVIDIA driver` on Trainium, and becomes
# `torch.empty(sizes, dtype=<the type's dtype>, device=<target device>)`, one finding per call
# (not a second one for `.fill_`); also through a name bound only to the type (`LongT`).
# Twin: cuda_tensor_constructor_twin.
import torch
import torch.nn as nn
import torch_xla


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
            padding = torch.autograd.Variable(torch.empty(batch_size, residual_channel - shortcut_channel, featuremap_size[0], featuremap_size[1], dtype=torch.float32, device=torch_xla.device()).fill_(0))
            out += torch.cat((shortcut, padding), 1)
        else:
            out += shortcut
        return out


def make_masks(n, h, w):
    mask = torch.empty(h, w, dtype=torch.uint8, device=torch_xla.device()).zero_()
    pairs = torch.empty(n, 2, dtype=torch.int64, device=torch_xla.device())
    flags = torch.empty(
        n,
        h,
        dtype=torch.bool,
        device=torch_xla.device(),
    )
    return mask, pairs, flags, lambda k: torch.empty(k, k, dtype=torch.bfloat16, device=torch_xla.device())


LongT = torch.cuda.LongTensor


def make_index(n):
    return torch.empty(n, 2, dtype=torch.int64, device=torch_xla.device()).zero_()
