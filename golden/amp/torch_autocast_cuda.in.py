import torch as th
from torch import autocast
from torch.amp import autocast as amp_autocast


def step(model, x, y, loss_fn):
    with th.autocast("cuda", dtype=th.float16):
        out = model(x)
    with th.amp.autocast('cuda'):
        loss = loss_fn(out, y)
    with autocast(device_type="cuda", dtype=th.half, enabled=True):
        aux = model(y)
    with amp_autocast("cuda", th.bfloat16):
        extra = model(x + y)
    return loss + aux.sum() + extra.sum()
