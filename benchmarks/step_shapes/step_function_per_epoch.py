"""A full-batch step in a function called once per epoch from a module-level loop (TRN101's
step functions): `def train(epoch): ... optimizer.step()`, then `for epoch in ...: train(epoch)`,
as pygcn's train.py does. Does the graph grow without a cut?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/step_function_per_epoch.py

A dense two-layer GCN stand-in (``NODES`` nodes, a dense normalised adjacency) trained for
``EPOCHS`` epochs; each call steps the optimizer, then evaluates and reads the training and
validation losses and accuracies on the host (`.item()`), as pygcn's `train` does. Variants:
``none`` (no cut: the parameters stay pending, each epoch's graph holds every earlier update)
and ``cut-after-step`` (``torch_xla.sync()`` right after ``optimizer.step()`` in the function,
what the tool now inserts). Printed per variant, each in its own process: graph executions and
compiles (``ExecuteTime``/``CompileTime`` samples), the wall time and the last validation loss
(the same in both).
"""

import subprocess
import sys
import time

import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.debug.metrics as met

EPOCHS = 8
NODES = 512
dev = torch_xla.device()


class GCN(torch.nn.Module):
    def __init__(self, features: int, hidden: int, classes: int) -> None:
        super().__init__()
        self.w1 = torch.nn.Linear(features, hidden)
        self.w2 = torch.nn.Linear(hidden, classes)

    def forward(self, x, adj):
        x = F.relu(adj @ self.w1(x))
        x = F.dropout(x, 0.5, self.training)
        return F.log_softmax(adj @ self.w2(x), dim=1)


def run(variant: str) -> tuple[int, int, float, float]:
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    features = torch.randn(NODES, 64).to(dev)
    adj = torch.rand(NODES, NODES)
    adj = (adj > 0.98).float() + torch.eye(NODES)
    adj = (adj / adj.sum(1, keepdim=True)).to(dev)
    labels = torch.randint(0, 7, (NODES,)).to(dev)
    idx_train, idx_val = torch.arange(0, 140).to(dev), torch.arange(200, 500).to(dev)
    model = GCN(64, 16, 7).to(dev)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    torch_xla.sync()
    met.clear_all()
    last = 0.0

    def train(epoch: int) -> None:
        nonlocal last
        model.train()
        optimizer.zero_grad()
        output = model(features, adj)
        loss_train = F.nll_loss(output[idx_train], labels[idx_train])
        loss_train.backward()
        optimizer.step()
        if variant == "cut-after-step":
            torch_xla.sync()
        model.eval()
        output = model(features, adj)
        loss_val = F.nll_loss(output[idx_val], labels[idx_val])
        acc_val = output[idx_val].argmax(1).eq(labels[idx_val]).float().mean()
        loss_train.item(), acc_val.item()
        last = loss_val.item()

    start = time.perf_counter()
    for epoch in range(EPOCHS):
        train(epoch)
    torch_xla.sync()
    elapsed = time.perf_counter() - start
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    return executions, compiles, elapsed, last


VARIANTS = ("none", "cut-after-step")
if len(sys.argv) == 1:
    for variant in VARIANTS:
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    executions, compiles, elapsed, last = run(variant)
    print(
        f"{variant:15s} executions {executions:3d}  compiles {compiles:3d}  "
        f"time {elapsed:6.2f} s  last validation loss {last:.5f}"
    )
