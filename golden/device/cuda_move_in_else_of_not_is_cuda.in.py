# Class: a `.cuda()` in the `else` of `if not x.is_cuda:`, the arm only CUDA tensors take (a custom
# op whose CPU kernel runs in the `if` and whose CUDA kernel runs in the `else`). An XLA tensor's
# `is_cuda` is False, so the `else` never runs on the target, and there `.cuda()` feeds the CUDA
# kernel as written: reported, not rewritten (a rewrite would hand that kernel an XLA tensor on
# the GPU run and change nothing on the target).
import torch

from . import kernels


def psa_mask(input):
    output = torch.zeros_like(input)
    if not input.is_cuda:
        kernels.cpu.forward(input, output)
    else:
        output = output.cuda()
        kernels.gpu.forward(input, output)
    return output
