# golden: scale-out=true select=TRN16,TRN141
# Class: the training loader's dataset is a call (`DataLoader(TensorDataset(x, y), ...)`): bound
# to a name before the loader and given to the DistributedSampler too.
import os

import torch
import torch.distributed
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

# Launch one process per NeuronCore: torchrun --nproc_per_node=32 dataset_call_bound.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
    torch.distributed.init_process_group("xla", init_method="xla://")

torch.manual_seed(0)
x, y = torch.randn(64, 4), torch.randn(64, 1)
dataset = TensorDataset(x, y)
sampler = DistributedSampler(
    dataset,
    num_replicas=xr.world_size(),
    rank=xr.global_ordinal(),
    shuffle=True,
)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x_batch, y_batch in loader:
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(model(x_batch), y_batch).backward()
    xm.optimizer_step(optimizer)
