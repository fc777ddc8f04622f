# golden: target=xla-2.9
import torch
from mylib import DistributedType

if mode == DistributedType.TPU:
    torch.manual_seed(0)
