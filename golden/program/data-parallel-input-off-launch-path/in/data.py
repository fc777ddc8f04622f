import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader():
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    return DataLoader(data, batch_size=8, drop_last=True)
