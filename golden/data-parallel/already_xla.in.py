import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.utils.data.distributed import DistributedSampler

torch.distributed.init_process_group("xla", init_method="xla://")
sampler = DistributedSampler(ds, num_replicas=xr.world_size(), rank=xr.global_ordinal())
for x, y in loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.optimizer_step(optimizer)
