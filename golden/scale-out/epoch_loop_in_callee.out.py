# golden: scale-out=true select=TRN16,TRN141
import os

import torch
import torch.distributed
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def fit(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        loader.sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            xm.optimizer_step(optimizer)


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    sampler = DistributedSampler(
        data,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=False,
    )
    loader = DataLoader(data, 8, sampler=sampler)
    model = torch.nn.Linear(4, 1)
    fit(model, loader, torch.optim.Adam(model.parameters()), epochs=3)


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 epoch_loop_in_callee.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
