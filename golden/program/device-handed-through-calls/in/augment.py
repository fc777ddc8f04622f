import torch


class Augment:
    def __init__(self, p, device):
        self.p = p
        self.device = device

    def __call__(self, x):
        return x + torch.randn(x.shape, device=self.device) * self.p
