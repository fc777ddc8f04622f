import random

import torch
import torch_xla


def initialize(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    torch_xla.manual_seed(seed)
