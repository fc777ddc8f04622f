import random

import torch


def initialize(seed):
    random.seed(seed)
    torch.manual_seed(seed)
