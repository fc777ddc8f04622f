# golden: target=neuron
import os

import torch_xla.core.xla_model as xm

os.environ["XLA_USE_BF16"] = "1"
device = xm.xla_device()
rank = xm.get_ordinal()
xm.mark_step()
