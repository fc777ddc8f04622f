import torch
import torch_xla
import torch_xla.core.xla_model as xm


def setup(seed):
    torch.manual_seed(seed)
    torch_xla.manual_seed(seed)
    torch.manual_seed(seed); xm.set_rng_state(seed)
