# golden: target=xla-2.1
import torch as th
import torch_xla.core.xla_model as xm
from torch import manual_seed


def setup(seed):
    th.manual_seed(seed)
    xm.set_rng_state(seed)
    manual_seed(seed)
    xm.set_rng_state(seed)
    return th.nn.Linear(2, 2).to("xla")
