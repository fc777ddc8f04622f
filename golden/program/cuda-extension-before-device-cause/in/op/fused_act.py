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
    def forward(ctx, input, bias):
        return fused.fused_bias_act(input, bias, input.new_empty(0), 3, 0, 0.2, 2**0.5)


def fused_leaky_relu(input, bias):
    if input.device.type == "cpu":
        return F.leaky_relu(input + bias.view(1, -1), 0.2) * 2**0.5
    else:
        return FusedLeakyReLUFunction.apply(input.contiguous(), bias)
