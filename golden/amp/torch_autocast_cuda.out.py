import torch as th
from torch import autocast
from torch.amp import autocast as amp_autocast


def step(model, x, y, loss_fn):
    with th.autocast("xla", dtype=th.bfloat16):
        out = model(x)
    with th.amp.autocast('xla', dtype=th.bfloat16):
        loss = loss_fn(out, y)
    with autocast(device_type="xla", dtype=th.bfloat16, enabled=True):
        aux = model(y)
    with amp_autocast("xla", th.bfloat16):
        extra = model(x + y)
    return loss + aux.sum() + extra.sum()
