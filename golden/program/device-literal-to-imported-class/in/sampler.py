import torch


class Sampler:
    def __init__(self, dim, device):
        self.dim = dim
        self.device = device

    def sample(self, n):
        return torch.randn(n, self.dim, device=self.device)
