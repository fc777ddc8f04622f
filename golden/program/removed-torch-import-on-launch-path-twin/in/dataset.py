import torch
from torch._utils import _accumulate
from torch.utils.data import DataLoader, Subset, TensorDataset


def batches():
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    lengths = [48, 16]
    train, _ = [
        Subset(data, range(end - length, end)) for end, length in zip(_accumulate(lengths), lengths)
    ]
    return DataLoader(train, batch_size=8, drop_last=True)
