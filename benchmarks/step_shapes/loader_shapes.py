"""Dynamic shapes the loader makes (TRN440, TRN441; issue 35 item 3).

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/loader_shapes.py

``BATCHES`` batches of token sequences whose lengths are drawn from 5 to 60, as a bucketing
iterator or a collate function that pads to each batch's own longest item hands them to the
step: ``longest`` pads each batch to its longest sequence (``pad_sequence``,
``max(len(x) for x in batch)``); ``buckets`` pads it up to the next multiple of 16 (TRN214's
``_pad_to_bucket``). Printed per variant, each in its own process: graph compiles and
executions (``CompileTime``/``ExecuteTime`` samples of torch_xla.debug.metrics) of an embedding
+ linear training step.
"""

import random
import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met
from torch.nn.utils.rnn import pad_sequence

BATCHES = 20
dev = torch_xla.device()


def run(variant: str) -> tuple[int, int]:
    random.seed(0)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Embedding(100, 16), torch.nn.Linear(16, 2)).to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [
        [torch.randint(1, 100, (random.randint(5, 60),)) for _ in range(4)] for _ in range(BATCHES)
    ]
    torch_xla.sync()
    met.clear_all()
    for batch in batches:
        tokens = pad_sequence(batch, batch_first=True)
        if variant == "buckets":
            width = -(-tokens.shape[1] // 16) * 16
            tokens = torch.nn.functional.pad(tokens, (0, width - tokens.shape[1]))
        optimizer.zero_grad()
        model(tokens.to(dev)).mean().backward()
        optimizer.step()
        torch_xla.sync()
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    return compiles, executions


if len(sys.argv) == 1:
    for variant in ("longest", "buckets"):
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    compiles, executions = run(variant)
    print(f"{variant:8s} compiles {compiles:2d}  executions {executions:2d} in {BATCHES} batches")
