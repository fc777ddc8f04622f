"""Fixed-count loops over tensors inside the step are not batch loops (TRN102, issue 35 item 3).

A SwAV-style stand-in: each training step calls Sinkhorn-Knopp normalisation, whose
``for _ in range(N_ITERS)`` loop updates the codes it holds. Does that loop need a graph cut?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/fixed_count_loops.py

``cut-in-sinkhorn``: ``torch_xla.sync()`` at the end of the Sinkhorn loop's body (what the tool
inserted when it took the loop for an evaluation loop under ``no_grad``) and after the optimizer
step. ``step-only``: the cut after the optimizer step alone (the fix). Printed per variant: graph
executions and compiles over ``STEPS`` steps (``ExecuteTime``/``CompileTime`` samples of
torch_xla.debug.metrics), and the final loss (the same in both: a cut moves no value).
"""

import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met

STEPS = 10
N_ITERS = 3
dev = torch_xla.device()


@torch.no_grad()
def sinkhorn(out: torch.Tensor, cut: bool, eps: float = 0.05) -> torch.Tensor:
    q = torch.exp(out / eps).t()
    b, k = q.shape[1], q.shape[0]
    q /= torch.sum(q)
    for _ in range(N_ITERS):
        q /= torch.sum(q, dim=1, keepdim=True)
        q /= k
        q /= torch.sum(q, dim=0, keepdim=True)
        q /= b
        if cut:
            torch_xla.sync()
    return (q * b).t()


def run(variant: str) -> tuple[int, int, float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))
    model.to(dev)
    prototypes = torch.randn(8, 6).to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [torch.randn(4, 16) for _ in range(STEPS)]
    torch_xla.sync()
    met.clear_all()
    for x in batches:
        scores = model(x.to(dev)) @ prototypes
        q = sinkhorn(scores, cut=variant == "cut-in-sinkhorn")
        loss = -(q * torch.log_softmax(scores, 1)).sum(1).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch_xla.sync()
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    return executions, compiles, float(loss.detach().cpu())


for variant in sys.argv[1:] or ("cut-in-sinkhorn", "step-only"):
    executions, compiles, loss = run(variant)
    print(f"{variant:16s} executions {executions:3d}  compiles {compiles:3d}  loss {loss:.6f}")
