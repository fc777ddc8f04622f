# Code already written for torch 2 (math.inf, torch.inf): nothing to do.
import math

import torch


def clip(parameters, norm_type=2.0):
    if norm_type == math.inf or norm_type == torch.inf:
        return max(p.grad.abs().max() for p in parameters)
    return sum(p.grad.norm(norm_type) for p in parameters)
