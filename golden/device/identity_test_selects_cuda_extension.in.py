# golden: select=TRN023,TRN046
# Class: a device test in a module that builds a CUDA extension, choosing between the
# extension's autograd Function and a PyTorch path: XLA tensors must take the PyTorch path, as
# the test gives them as written. Kept and reported (TRN046), not rewritten to "xla" (twin:
# identity_test_plain_twin).
import torch
from torch.autograd import Function
from torch.utils.cpp_extension import load

fused = (
    load("fused", sources=["fused_bias_act.cpp", "fused_bias_act_kernel.cu"])
    if torch.cuda.is_available()
    else None
)


class FusedBiasAct(Function):
    @staticmethod
    def forward(ctx, input, bias):
        return fused.fused_bias_act(input, bias)


def bias_act(input, bias):
    if input.device.type == "cuda":
        return FusedBiasAct.apply(input, bias)
    return torch.nn.functional.leaky_relu(input + bias, 0.2)
