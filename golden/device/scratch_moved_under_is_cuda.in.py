# Class: a tensor moved with a bare `.cuda()` only `if x.is_cuda:` (a scratch mask built on the
# CPU beside the activations, `torch.BoolTensor(x.size())`): `is_cuda` is False on the XLA or
# Neuron device, so the move is skipped there and `x.masked_fill(mask, 0)` raises "Expected XLA
# tensor. Got: CPUBoolType" (measured on XLA:CPU, torch-xla 2.9). The whole `if` becomes the
# unconditional `mask = mask.to(x.device)`: the same move on CUDA, a no-op on the CPU.
# Twin: scratch_moved_under_is_cuda_twin.
import torch
import torch.nn.functional as F


class MaskConv(torch.nn.Module):
    def __init__(self, seq_module):
        super().__init__()
        self.seq_module = seq_module

    def forward(self, x, lengths):
        for module in self.seq_module:
            x = module(x)
            mask = torch.BoolTensor(x.size()).fill_(0)
            if x.is_cuda:
                mask = mask.cuda()
            for i, length in enumerate(lengths):
                length = length.item()
                if (mask[i].size(2) - length) > 0:
                    mask[i].narrow(2, length, mask[i].size(2) - length).fill_(1)
            x = x.masked_fill(mask, 0)
        return x, lengths


def warp(input, grid):
    # the grid follows the image it samples
    if input.is_cuda:
        grid = grid.cuda()
    return F.grid_sample(input, grid)


def set_weights(raw_w, dropout):
    mask = torch.ones(raw_w.size(0), 1)
    if raw_w.is_cuda: mask = mask.cuda()
    return F.dropout(mask, p=dropout, training=True).expand_as(raw_w) * raw_w
