import random

import torch


def make_noise(batch, dim, device):
    return torch.randn(batch, dim, device=device)


def mixing_noise(batch, dim, prob, device):
    if random.random() < prob:
        return make_noise(batch, dim, device) * 0.5
    return make_noise(batch, dim, device)
