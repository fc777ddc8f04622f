# golden: target=xla-2.1
import torch_xla.core.xla_model as xm
import torch_xla.runtime as xr

# xr exists since torch-xla 2.1: the removed names are rewritten on every XLA target, while
# xla_device/mark_step, deprecated only from 2.8, stay.
device = xm.xla_device()
rank = xr.global_ordinal()
world = xr.world_size()
xm.mark_step()
