# golden: scale-out=true select=ALL
import argparse
import os

import torch
import torch.distributed
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler
from torchvision import datasets
from torchvision.transforms import ToTensor

from mydata import Shards


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fashion", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    # Under an `if`: reported, not rewritten.
    if args.fashion:
        train_set = datasets.FashionMNIST("./data", train=True, download=True, transform=ToTensor())
    else:
        train_set = datasets.MNIST("./data", train=True, transform=ToTensor())
    # Not torchvision's: left alone. No download: left alone.
    shards = Shards("./shards", download=True)
    test_set = datasets.MNIST("./data", train=False, download=False, transform=ToTensor())
    train_sampler = DistributedSampler(
        train_set,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
    )
    train_loader = DataLoader(train_set, batch_size=32, sampler=train_sampler, drop_last=True)
    device = "xla"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        train_sampler.set_epoch(epoch)
        for x, y in train_loader:
            optimizer.zero_grad()
            x, y = x.view(x.size(0), -1).to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            xm.optimizer_step(optimizer)
            torch_xla.sync()


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 download_conditional_reported.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
