# Class: a CUDA extension built at import whose module returns early for CPU tensors
# (`if x.device.type == "cpu": return op_native(x)`) and sends the rest to the kernel: a blocker,
# whose message names that function and its PyTorch path.
import torch
from torch.autograd import Function
from torch.utils.cpp_extension import load

ext = load("ext", sources=["ext.cpp", "ext_kernel.cu"])


class Op(Function):
    @staticmethod
    def forward(ctx, x):
        return ext.forward(x)


def op_native(x):
    return x * 2


def op(x):
    if x.device.type == "cpu":
        return op_native(x)
    return Op.apply(x)
