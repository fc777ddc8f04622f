# Twin of cuda_under_is_cuda_test: `.cuda()` outside a test of `.is_cuda` (and in the `else` of
# one, which is the branch that runs on the XLA device) keeps its rewrite.
import torch
import torch.nn.functional as F
import torch_xla


def warp(input, grid):
    grid = grid.to(torch_xla.device())
    return F.grid_sample(input, grid)


def to_cpu_or_cuda(x, y):
    if x.is_cuda:
        return y
    else:
        return y.to(torch_xla.device())
