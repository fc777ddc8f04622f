# Class: a CUDA extension built when the module is imported (StyleGAN2's op/fused_act.py):
# `cpp_extension.load` with a `.cu` source needs nvcc and a CUDA toolkit, so the import raises on
# a Trainium host. A blocker, whose message names the function that gives only CPU tensors the
# module's PyTorch path (twins: build_guarded_by_cuda_check, build_caught_with_fallback).
import os

import torch
from torch.autograd import Function
from torch.nn import functional as F
from torch.utils.cpp_extension import load

module_path = os.path.dirname(__file__)
fused = load(
    "fused",
    sources=[
        os.path.join(module_path, "fused_bias_act.cpp"),
        os.path.join(module_path, "fused_bias_act_kernel.cu"),
    ],
)


class FusedLeakyReLUFunction(Function):
    @staticmethod
    def forward(ctx, input, bias, negative_slope, scale):
        empty = input.new_empty(0)
        return fused.fused_bias_act(input, bias, empty, 3, 0, negative_slope, scale)


def fused_leaky_relu(input, bias, negative_slope=0.2, scale=2**0.5):
    if input.device.type == "cpu":
        rest_dim = [1] * (input.ndim - bias.ndim - 1)
        return F.leaky_relu(input + bias.view(1, bias.shape[0], *rest_dim), negative_slope) * scale
    else:
        return FusedLeakyReLUFunction.apply(input.contiguous(), bias, negative_slope, scale)
