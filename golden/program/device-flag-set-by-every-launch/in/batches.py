import torch


def batch(device):
    return torch.randn(8, 4).to(device), torch.randint(0, 2, (8,)).to(device)
