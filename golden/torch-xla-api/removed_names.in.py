import os

import torch_xla.experimental.pjrt as pjrt
import torch_xla.runtime as xr
import torch_xla.amp
from torch_xla.amp import GradScaler, syncfree

os.environ["XLA_USE_BF16"] = "1"
os.environ.setdefault("XLA_DOWNCAST_BF16", "1")
bf16 = os.getenv("XLA_USE_BF16") == "1" or "XLA_DOWNCAST_BF16" in os.environ
env = {"XLA_USE_BF16": "1", "PJRT_DEVICE": "NEURON"}
label = "XLA_USE_BF16"  # just text, not the environment

if xr.using_pjrt():
    print(pjrt.global_ordinal())
scaler = torch_xla.amp.GradScaler()
opt = syncfree.AdamW
