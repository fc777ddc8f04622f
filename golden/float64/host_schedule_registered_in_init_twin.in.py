# Twin of host_schedule_registered_in_init: float64 made outside a module's `__init__`
# registration is rewritten as before: registered in another method (after the module may have
# moved), made on the device, or made in `__init__` and kept as an attribute, not a buffer.
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, T, device):
        super().__init__()
        self.table = torch.linspace(0, 1, T).double()
        self.register_buffer("placed", torch.ones(T, device=device).double())

    def reset(self, T):
        self.register_buffer("betas", torch.linspace(0, 1, T).double())
