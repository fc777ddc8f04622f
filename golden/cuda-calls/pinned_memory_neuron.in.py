# golden: target=neuron
import torch
from torch.utils.data import DataLoader


def loaders(train_set, use_accel):
    return DataLoader(train_set, batch_size=32, pin_memory=True, shuffle=True)


def get_batch(data, ix, device):
    x = torch.stack([data[i] for i in ix])
    x = x.pin_memory()
    return x.to(device, non_blocking=True), (x * 2).pin_memory().to(device, non_blocking=True)
