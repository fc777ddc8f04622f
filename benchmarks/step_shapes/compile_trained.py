"""`torch.compile` on a model that is trained, on XLA (TRN436, issue 35 item 3).

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/compile_trained.py

A small trainer (two linear layers, SGD, ``torch_xla.sync()`` after the optimizer step) runs
``STEPS`` steps, then evaluates ``STEPS`` batches under ``no_grad`` reading the loss on the host
each batch (``float(loss)``). ``openxla``: the model wrapped in ``torch.compile(model,
backend="openxla")`` (what TRN154 wrote). ``dropped``: no ``torch.compile``, the lazy tensor
traces the whole step. ``ema-openxla`` and ``ema-plain``: the model trained without the
compile, an EMA copy (``AveragedModel``, ``update_parameters`` every step) that is evaluated,
compiled with ``backend="openxla"`` or not. Printed per variant, each in its own process: graph
executions per training step and per evaluation batch, and compiles (``ExecuteTime``/
``CompileTime`` samples of torch_xla.debug.metrics, Dynamo's own tracing included), and the
final losses (the same across variants).
"""

import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met
from torch.optim.swa_utils import AveragedModel

STEPS = 6
dev = torch_xla.device()


def counts() -> tuple[int, int]:
    executions = met.metric_data("ExecuteTime")
    compiles = met.metric_data("CompileTime")
    return (executions[0] if executions else 0), (compiles[0] if compiles else 0)


def run(variant: str) -> str:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    ema = AveragedModel(model) if variant.startswith("ema") else None
    if variant == "openxla":
        model = torch.compile(model, backend="openxla")
    if variant == "ema-openxla":
        ema = torch.compile(ema, backend="openxla")
    data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(STEPS)]
    torch_xla.sync()
    met.clear_all()
    for x, y in data:
        x, y = x.to(dev), y.to(dev)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if ema is not None:
            ema.update_parameters(model)
        torch_xla.sync()
    train_executions, train_compiles = counts()
    train_loss = float(loss.detach().cpu())
    met.clear_all()
    evaluated = model if ema is None else ema
    total = 0.0
    with torch.no_grad():
        for x, y in data:
            total += float(torch.nn.functional.cross_entropy(evaluated(x.to(dev)), y.to(dev)))
    eval_executions, eval_compiles = counts()
    return (
        f"{variant:12s} train: executions/step {train_executions / STEPS:.2f}  compiles "
        f"{train_compiles:2d}  loss {train_loss:.5f} | eval: executions/batch "
        f"{eval_executions / STEPS:.2f}  compiles {eval_compiles:2d}  loss sum {total:.5f}"
    )


if len(sys.argv) == 1:
    for variant in ("openxla", "dropped", "ema-openxla", "ema-plain"):
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    print(run(variant))
