import torch
import torch_xla.distributed.xla_multiprocessing as xmp
from torch import distributed as D


def _mp_fn(index, flags):
    D.init_process_group(flags.backend)
    D.init_process_group("gloo")
    D.init_process_group("nccl", device_id=torch.device("cuda", index))
    for x, y in loader:
        torch.nn.functional.mse_loss(model(x), y).backward()
        scaler.step(optimizer)
        optimizer.step(closure)
        scaler.update()


xmp.spawn(_mp_fn, args=(FLAGS,), nprocs=8)
xmp.spawn(_mp_fn, args=(FLAGS,), nprocs=None)
