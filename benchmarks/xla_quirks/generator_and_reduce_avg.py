"""torch-xla 2.9: two objects of GPU training code that cannot live on the XLA device.

    PJRT_DEVICE=CPU python generator_and_reduce_avg.py

Printed on torch 2.9.0 + torch-xla 2.9.0 (XLA:CPU, one process):

    torch.Generator(device=xla): RuntimeError XLA device type not an accelerator.
    torch.Generator() on the CPU, drawn there and moved: ok
    all_reduce SUM: ok [3.0, 3.0]
    all_reduce AVG: ValueError Invalid reduce op ...
    all_reduce MAX: ok [3.0, 3.0]

So a GPU script's ``torch.Generator(device="cuda")`` must not become ``device="xla"`` (TRN008
reports it), and ``dist.all_reduce(t, op=dist.ReduceOp.AVG)`` over the ``xla`` process group
raises: reduce with ``SUM`` and divide by the world size (TRN148).
"""

import os

import torch
import torch.distributed as dist
import torch_xla
import torch_xla.distributed.xla_backend  # noqa: F401  (registers the "xla" backend)

dev = torch_xla.device()
try:
    torch.Generator(device=dev)
    print("torch.Generator(device=xla): ok")
except Exception as error:  # noqa: BLE001 - what it raises is the finding
    print("torch.Generator(device=xla):", type(error).__name__, str(error).splitlines()[0])
generator = torch.Generator()
generator.manual_seed(0)
drawn = torch.randn(3, generator=generator).to(dev)
torch_xla.sync()
print("torch.Generator() on the CPU, drawn there and moved: ok")

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group("xla", init_method="xla://")
for op in ("SUM", "AVG", "MAX"):
    t = torch.ones(2, device=dev) * 3
    try:
        dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
        torch_xla.sync()
        print(f"all_reduce {op}: ok", t.cpu().tolist())
    except Exception as error:  # noqa: BLE001
        print(f"all_reduce {op}:", type(error).__name__, str(error).splitlines()[0][:60])
dist.destroy_process_group()
