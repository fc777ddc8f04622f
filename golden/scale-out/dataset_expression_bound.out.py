# golden: scale-out=true select=TRN16,TRN141
# Class: the training loader's dataset is written in its call, a subscript or a call
# (`DataLoader(ds["train"], ...)`, `DataLoader(TensorDataset(x, y), ...)`): bound to a name before
# the loader, evaluated once, so the DistributedSampler and the loader share one dataset.
import os

import torch
import torch.distributed
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    torch.manual_seed(0)
    splits = {"train": TensorDataset(torch.randn(64, 4), torch.randn(64, 1))}
    train_dataset = splits["train"]
    train_sampler = DistributedSampler(
        train_dataset,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
    )
    train_loader = DataLoader(train_dataset, sampler=train_sampler, batch_size=8)
    eval_loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 1)), batch_size=8)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        train_sampler.set_epoch(epoch)
        for x, y in train_loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            xm.optimizer_step(optimizer)
    with torch.no_grad():
        for x, y in eval_loader:
            xm.master_print(torch.nn.functional.mse_loss(model(x), y))


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 dataset_expression_bound.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
