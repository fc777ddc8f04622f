import os

import torch

USE_BF16 = os.environ.get("XLA_USE_BF16", "0") == "1"


def accumulate(total, loss):
    return total + loss.to(torch.float64)
