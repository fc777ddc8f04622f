import random

import torch


def make_noise(batch, dim):
    return torch.randn(batch, dim)


def mixing_noise(batch, dim, prob):
    if random.random() < prob:
        return [make_noise(batch, dim), make_noise(batch, dim)]
    return [make_noise(batch, dim)]
