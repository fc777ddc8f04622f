"""`torch.compile` on a model that is trained, on XLA (TRN436, issue 35 item 3).

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/compile_trained.py

A small trainer (two linear layers, SGD, ``torch_xla.sync()`` after the optimizer step) runs
``STEPS`` steps. ``openxla``: the model wrapped in ``torch.compile(model, backend="openxla")``
(what TRN154 wrote). ``dropped``: no ``torch.compile``, the lazy tensor traces the whole step.
Printed per variant, each in its own process: graph executions per step and compiles
(``ExecuteTime``/``CompileTime`` samples of torch_xla.debug.metrics, Dynamo's own tracing
included), and the final loss (the same in both).
"""

import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met

STEPS = 6
dev = torch_xla.device()


def run(variant: str) -> tuple[float, int, float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if variant == "openxla":
        model = torch.compile(model, backend="openxla")
    data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(STEPS)]
    torch_xla.sync()
    met.clear_all()
    for x, y in data:
        x, y = x.to(dev), y.to(dev)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    return executions / STEPS, compiles, float(loss.detach().cpu())


if len(sys.argv) == 1:
    for variant in ("openxla", "dropped"):
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    per_step, compiles, loss = run(variant)
    print(f"{variant:8s} executions/step {per_step:.2f}  compiles {compiles:2d}  loss {loss:.5f}")
