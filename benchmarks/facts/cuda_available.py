"""The facts the evaluator of the migrated program takes for the xla targets
(trncodemod/data/device_facts.toml), measured under torch-xla: run with
`PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/facts/cuda_available.py`."""

import torch
import torch_xla
import torch_xla.core.xla_model as xm

print("torch", torch.__version__, "torch_xla", torch_xla.__version__)
print("torch.cuda.is_available():", torch.cuda.is_available())
print("torch.accelerator.is_available():", torch.accelerator.is_available())
print("torch_xla.device():", torch_xla.device(), "xm.xla_device():", xm.xla_device())
x = torch.randn(2, 2)
try:
    x.type(torch.cuda.FloatTensor)
    print("x.type(torch.cuda.FloatTensor): ok")
except Exception as err:  # noqa: BLE001 - the measurement is the error
    print("x.type(torch.cuda.FloatTensor):", type(err).__name__, str(err).splitlines()[0])
print("x.to('xla').type(torch.FloatTensor).device:", x.to("xla").type(torch.FloatTensor).device)
