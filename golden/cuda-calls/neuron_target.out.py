# golden: target=neuron
import torch
from torch.utils.data import DataLoader


def main(ds):
    loader = DataLoader(ds, batch_size=8)
    n = torch.accelerator.device_count()
    index = torch.accelerator.current_device_index()
    used = torch.cuda.memory_allocated()
    torch.accelerator.synchronize()
    return loader, n, index, used
