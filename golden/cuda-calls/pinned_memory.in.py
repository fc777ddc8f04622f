import torch
from torch.utils.data import DataLoader as DL


def loaders(train_set, test_set, use_cuda):
    train = DL(train_set, batch_size=32, pin_memory=True, shuffle=True)
    test = torch.utils.data.DataLoader(test_set, batch_size=64,
                                       pin_memory=use_cuda)
    return train, test


def prefetch(batch, it):
    batch = batch.pin_memory()
    x = (batch * 2).pin_memory()
    batch.pin_memory()
    next(it).pin_memory()
    return x
