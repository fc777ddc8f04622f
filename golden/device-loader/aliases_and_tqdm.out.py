import torch as th
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils import data as tud
from tqdm import tqdm

dev = xm.xla_device()
loader = tud.DataLoader(dataset, batch_size=8, drop_last=True)
net = Net().to(dev)


def train():
    for i, (inputs, labels) in enumerate(tqdm(pl.MpDeviceLoader(loader, dev), desc="train"), 1):
        if inputs.size(0) != len(labels):
            continue
        th.nn.functional.cross_entropy(net(inputs), labels).backward()
        opt.step()
        if i > 100:
            break
