# golden: scale-out=true select=TRN16,TRN141
# The loader takes `**options` (a dict literal updated once) and a dataset written as a call:
# both are read, the dataset bound to a name, and the loader sharded.
import os

import torch
import torch.distributed
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def main():
    torch.manual_seed(0)
    options = {"batch_size": 8}
    options.update({"shuffle": True, "num_workers": 1})
    dataset = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    sampler = DistributedSampler(
        dataset,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=options.pop("shuffle", False),
    )
    loader = DataLoader(dataset, **options, sampler=sampler)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        xm.optimizer_step(optimizer)


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 loader_options_dataset_call.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
