"""torch-xla 2.9: a gloo process group cannot hold DDP on an XLA model. A script whose backend
is chosen by CUDA availability (`"nccl" if torch.cuda.is_available() else "gloo"`) gets gloo on
Trainium, where `torch.cuda.is_available()` is False; `init_process_group("gloo")` succeeds, and
DDP then raises at construction, as its first collective (the parameter-shape check) meets XLA
tensors.

    PJRT_DEVICE=CPU python gloo_xla_ddp.py
    # all_reduce on gloo with an XLA tensor: ok tensor([1., 1.])   (world size 1: no exchange)
    # DDP on gloo with an XLA model: RuntimeError ProcessGroupGloo::allgather: invalid tensor
    #   type at index 0 (expected ... device=cpu ..., got ... device=xla:0 ...)
"""

import os

import torch
import torch.distributed as dist
import torch_xla

os.environ.setdefault("MASTER_ADDR", "localhost")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group("gloo", rank=0, world_size=1)
t = torch.ones(2, device=torch_xla.device())
try:
    dist.all_reduce(t)
    torch_xla.sync()
    print("all_reduce on gloo with an XLA tensor: ok", t.cpu())
except Exception as e:  # noqa: BLE001
    print("all_reduce on gloo with an XLA tensor:", type(e).__name__, str(e).splitlines()[0])
try:
    m = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2).to(torch_xla.device()))
    print("DDP on gloo with an XLA model: constructed")
except Exception as e:  # noqa: BLE001
    print("DDP on gloo with an XLA model:", type(e).__name__, str(e).splitlines()[0])
