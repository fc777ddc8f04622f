# Twin of scratch_moved_under_is_cuda: `if x.is_cuda:` guarding something other than one bare
# move of a name onto itself is not rewritten: a CUDA kernel's call (the CPU path is the one
# that runs on the XLA device), a move with an `else`, a test with more than `is_cuda` in it, a
# move that is not rebound, a move to a given device index, and a test of `is_cuda` on `self` or
# on a namespace of options (a flag of that name, which may have no `device`).
import torch

from kernels import fused_mask_cuda


def masked(x, lengths):
    if x.is_cuda:
        return fused_mask_cuda(x, lengths)
    return x.masked_fill(torch.arange(x.size(-1)) >= lengths[:, None], 0)


def with_else(x, mask):
    if x.is_cuda:
        mask = mask.cuda()
    else:
        mask = mask.float()
    return x * mask


def two_tests(x, mask, pinned):
    if x.is_cuda and pinned:
        mask = mask.cuda()
    return x * mask


def other_name(x, mask):
    if x.is_cuda:
        weights = mask.cuda()
    return x * weights


def to_index(x, mask):
    if x.is_cuda:
        mask = mask.cuda(0)
    return x * mask


class Prefetcher:
    def __init__(self, is_cuda):
        self.is_cuda = is_cuda

    def batch(self, x):
        if self.is_cuda:
            x = x.cuda()
        return x


def from_options(args, x):
    if args.is_cuda:
        x = x.cuda()
    return x
