# golden: select=TRN023,TRN046
# Class: a device test that selects a CUDA-only implementation (StyleGAN2's
# op/conv2d_gradfix.py `could_use_op`): its function also tests `torch.backends.cudnn`, and the
# op it turns on calls a cuDNN kernel by name. As written the test sends XLA tensors to
# `F.conv2d`, which is right on Trainium; made a test for "xla" it would send them to cuDNN.
# The module calls that cuDNN op, so a test of its own (`weight_grad_op_applies`) is kept too.
# Kept and reported (TRN046), not rewritten (twin: identity_test_plain_twin).
import torch
from torch import autograd
from torch.nn import functional as F

enabled = True


def could_use_op(input):
    if (not enabled) or (not torch.backends.cudnn.enabled):
        return False
    if input.device.type != "cuda":
        return False
    return True


class Conv2dGradWeight(autograd.Function):
    @staticmethod
    def forward(ctx, grad_output, input):
        op = torch._C._jit_get_operation("aten::cudnn_convolution_backward_weight")
        return op(grad_output, input)


def conv2d(input, weight, bias=None):
    if could_use_op(input):
        return Conv2dGradWeight.apply(input, weight)
    return F.conv2d(input, weight, bias)


def weight_grad_op_applies(input):
    return input.device.type == "cuda" and input.dtype == torch.float16
