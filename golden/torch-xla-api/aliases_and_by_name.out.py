import torch_xla
import torch_xla.core.xla_model as xla_model
import torch_xla.runtime as xr
from torch_xla.core.xla_model import get_ordinal, mark_step

rank = xr.global_ordinal()
world = xr.world_size()
dev = torch_xla.device()
mark_step()
local = get_ordinal()
sizer = xla_model.xrt_world_size
odd = xla_model.get_ordinal(defval=3)
