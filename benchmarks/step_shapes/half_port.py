"""Never half a port (TRN121/TRN125, issue 35 item 3): a loss sum moved onto the device needs
its loop's graph cut.

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/half_port.py

An evaluation loop that reads the predictions on the host every batch (``.tolist()``) and sums
the loss. ``host-sum``: ``total += loss.item()`` (the script as written). ``device-sum-no-cut``:
``total += loss.detach()`` with no cut (what item-hoist wrote where the loop got none).
``device-sum-cut``: the device sum with ``torch_xla.sync()`` before the read (what the tool
writes now). Printed per variant, each in its own process: graph executions per batch over
``BATCHES`` batches, the IR nodes pending in ``total`` right before the loop ends (a graph that
grows with the batches when nothing cuts it), and the summed loss (the same in all three).
"""

import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met

BATCHES = 16
dev = torch_xla.device()


def run(variant: str) -> tuple[float, int, float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to(dev).eval()
    data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(BATCHES)]
    torch_xla.sync()
    met.clear_all()
    total = 0.0
    preds = []
    pending = 0
    with torch.no_grad():
        for x, y in data:
            x, y = x.to(dev), y.to(dev)
            out = model(x)
            loss = torch.nn.functional.cross_entropy(out, y)
            if variant == "host-sum":
                total += loss.item()
            else:
                total += loss.detach()
            if variant == "device-sum-cut":
                torch_xla.sync()
            preds.append(out.argmax(1).tolist())
        if isinstance(total, torch.Tensor):
            text = torch_xla._XLAC._get_xla_tensors_text([total])
            pending = sum(1 for line in text.splitlines() if " = " in line)
    total = float(total)
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    return executions / BATCHES, pending, total


if len(sys.argv) == 1:
    for variant in ("host-sum", "device-sum-no-cut", "device-sum-cut"):
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    per_batch, pending, total = run(variant)
    print(
        f"{variant:18s} executions/batch {per_batch:.2f}  pending IR nodes in total {pending:4d}  "
        f"loss {total:.5f}"
    )
