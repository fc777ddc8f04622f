# golden: target=xla-2.1
import torch as th
from torch import manual_seed


def setup(seed):
    th.manual_seed(seed)
    manual_seed(seed)
    return th.nn.Linear(2, 2).to("xla")
