# A star import cannot be rewritten name by name: a blocker.
import torch
from torch._six import *


def bound():
    return torch.tensor(inf)
