# golden: target=xla-2.1
import torch as th
from torch import manual_seed
import torch_xla.core.xla_model as xm


def setup(seed):
    th.manual_seed(seed)
    xm.set_rng_state(seed)
    manual_seed(seed)
    xm.set_rng_state(seed)
    return th.nn.Linear(2, 2).to("xla")
