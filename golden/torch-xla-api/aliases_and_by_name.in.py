import torch_xla
import torch_xla.core.xla_model as xla_model
from torch_xla.core import xla_model as X
from torch_xla.core.xla_model import get_ordinal, mark_step

rank = xla_model.get_ordinal()
world = torch_xla.core.xla_model.xrt_world_size()
dev = X.xla_device()
mark_step()
local = get_ordinal()
sizer = xla_model.xrt_world_size
odd = xla_model.get_ordinal(defval=3)
