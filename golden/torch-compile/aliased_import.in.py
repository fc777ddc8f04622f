from torch import compile as jit

import torch

model = jit(model)
