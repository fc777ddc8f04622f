# golden: target=xla-2.1
import os

import torch_xla.experimental.xla_sharding as xs
import torch_xla.runtime as xr
from torch_xla.amp import GradScaler

# All of these still exist on torch-xla 2.1.
os.environ["XLA_USE_BF16"] = "1"
if xr.using_pjrt():
    scaler = GradScaler()
xs.mark_sharding
