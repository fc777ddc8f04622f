import os

import numpy as np
import torch

os.environ["XLA_USE_BF16"] = "1"
scale = torch.ones(3, dtype=np.float64)
