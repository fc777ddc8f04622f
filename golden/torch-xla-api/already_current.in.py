import torch
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.runtime as xr

# Written for torch-xla 2.9 already: nothing to change.
device = torch_xla.device()
rank = xr.global_ordinal()
world = xr.world_size()
local = xm.get_local_ordinal()
torch_xla.sync()
xm.optimizer_step
loader = pl.MpDeviceLoader([], device)
