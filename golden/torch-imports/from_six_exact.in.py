# Old torch 1.x helpers (apex, old torchvision forks): every name has an exact replacement.
import torch
from torch._six import inf, string_classes


def clip(parameters, max_norm, norm_type=2.0):
    if norm_type == inf:
        return max(p.grad.abs().max() for p in parameters)
    return torch.norm(torch.stack([p.grad.norm(norm_type) for p in parameters]), norm_type)


def is_text(x):
    return isinstance(x, string_classes)
