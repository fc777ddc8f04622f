# golden: scale-out=true select=ALL
import os

import torch
import torch.distributed
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler
from torchvision import datasets
from torchvision.datasets import mnist
from torchvision.transforms import ToTensor

# Downloaded at import by every process.
if not xm.is_master_ordinal(): xm.rendezvous("dataset_download")
train_dataset = mnist.MNIST(root="./MNIST_DATA_train", train=True, download=True, transform=ToTensor())
if xm.is_master_ordinal(): xm.rendezvous("dataset_download")


def evaluation_sets():
    # Two downloads in a row share one wait.
    if not xm.is_master_ordinal(): xm.rendezvous("dataset_download")
    test_set = datasets.FashionMNIST("./data", train=False, download=True, transform=ToTensor())
    extra_set = datasets.KMNIST("./data", train=False, download=True, transform=ToTensor())
    if xm.is_master_ordinal(): xm.rendezvous("dataset_download")
    return test_set, extra_set


def main():
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    train_sampler = DistributedSampler(
        train_dataset,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
    )
    train_loader = DataLoader(train_dataset, batch_size=32, sampler=train_sampler, drop_last=True)
    device = "xla"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        train_sampler.set_epoch(epoch)
        for x, y in pl.MpDeviceLoader(train_loader, device):
            optimizer.zero_grad()
            x = x.view(x.size(0), -1)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            xm.optimizer_step(optimizer)


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 download_rendezvous.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
