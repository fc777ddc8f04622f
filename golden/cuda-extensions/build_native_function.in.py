# Class: a CUDA extension built at import through an alias of the module, with its sources
# given by a name (StyleGAN2's op/upfirdn2d.py): a blocker, whose message names the PyTorch
# function a device test gives only CPU tensors (`upfirdn2d_native`).
import os

import torch
import torch.utils.cpp_extension as cpp_ext
from torch.autograd import Function

here = os.path.dirname(__file__)
sources = [os.path.join(here, "upfirdn2d.cpp"), os.path.join(here, "upfirdn2d_kernel.cu")]
upfirdn2d_op = cpp_ext.load("upfirdn2d", sources)


class UpFirDn2d(Function):
    @staticmethod
    def forward(ctx, input, kernel, up, down, pad):
        return upfirdn2d_op.upfirdn2d(input, kernel, up, up, down, down, *pad)


def upfirdn2d(input, kernel, up=1, down=1, pad=(0, 0)):
    if input.device.type == "cpu":
        out = upfirdn2d_native(input, kernel, up, down, pad)
    else:
        out = UpFirDn2d.apply(input, kernel, up, down, pad)
    return out


def upfirdn2d_native(input, kernel, up, down, pad):
    weight = torch.flip(kernel, [0, 1]).view(1, 1, *kernel.shape)
    return torch.nn.functional.conv2d(input, weight.expand(input.shape[1], 1, -1, -1))
