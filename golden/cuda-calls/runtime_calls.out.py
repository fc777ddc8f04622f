import time

import torch
import torch_xla.core.xla_model as xm


def setup(local_rank, seed):
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)


def timed_step(model, x):
    start = time.time()
    out = model(x)
    xm.wait_device_ops()
    elapsed = time.time() - start
    print(elapsed)
    return out


def cleanup():
    pass
