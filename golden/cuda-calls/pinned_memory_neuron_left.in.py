# golden: target=neuron
import torch
from torch.utils.data import DataLoader


class Batch:
    def pin_memory(self):
        return self


def loaders(train_set):
    # no pinning asked: nothing to drop
    return DataLoader(train_set, batch_size=32, pin_memory=False)


def memory(x, batch: Batch):
    # torch's own pinned-allocation query and keyword pin nothing that can be dropped safely
    return torch.cuda.is_available(), x.is_pinned(), batch
