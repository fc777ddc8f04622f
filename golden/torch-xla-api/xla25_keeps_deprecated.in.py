# golden: target=xla-2.5
import torch_xla.core.xla_model as xm

# torch-xla 2.5-2.7 do not deprecate these: nothing to change.
device = xm.xla_device()
xm.mark_step()
xm.master_print("ok")
ordinal = xm.get_local_ordinal()
