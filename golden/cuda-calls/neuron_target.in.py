# golden: target=neuron
import torch
from torch.utils.data import DataLoader


def main(ds):
    torch.backends.cudnn.benchmark = True
    loader = DataLoader(ds, batch_size=8, pin_memory=True)
    n = torch.cuda.device_count()
    index = torch.cuda.current_device()
    used = torch.cuda.memory_allocated()
    torch.cuda.synchronize()
    return loader, n, index, used
