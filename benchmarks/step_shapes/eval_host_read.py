"""Evaluation loops that read a value on the host every batch and carry nothing on the device
(TRN102, issue 35 item 3): where does their graph cut go?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/eval_host_read.py

Each batch runs the model and reads the loss on the host (``total += float(loss)``). Variants:
``none`` (no cut: the read runs the loss's graph), ``cut-before-read`` (``torch_xla.sync()``
right before the read), ``cut-after-read`` (at the end of the body, where the tool put it when it
did not know ``float(loss)`` for a host read), ``device-loader`` (an ``MpDeviceLoader``, which
cuts when the next batch is taken, after the read), ``device-loader-cut-before-read`` (both:
what the tool now writes for a loop over an MpDeviceLoader), ``three-reads`` and
``three-reads-cut-before`` (the iteration also transfers ``out.cpu()`` and ``h.cpu()``, where
``h`` is the first layer's output: several reads, nothing carried), ``argmax-and-labels`` and
``argmax-and-labels-cut-before`` (the iteration reads ``out.max(dim=1)[1].cpu().numpy()`` and
``y.cpu().numpy()`` instead of the loss: one read of a computed value, one of the batch just
moved to the device, as a segmentation validation loop does), ``three-reads-cut-after`` (the
three reads with the cut at the end of the body), ``format-per-sample`` and
``format-per-sample-cut-after`` (an inference loop that reads the predicted labels with
``.tolist()`` and formats each sample's confidence, ``f"{prob:0.4f}"``, a host read a sample, as
a text recognizer's demo does; nothing carried), ``meter`` and ``meter-cut-before`` (the loss
read on the host, and each batch's accuracy handed to a meter that sums it on the device,
``top1.update(acc, n)``, read after the loop: the value leaves the iteration, so the meter's sum
holds one graph over every batch's forward pass until it is read; printed too: the IR nodes
of that pending sum before the last sync). Printed per variant, each in its
own process so that no compile is cached from another: graph executions per batch and compiles
(``ExecuteTime``/``CompileTime`` samples of torch_xla.debug.metrics) over ``BATCHES`` batches
(the last sync after the loop included), and the summed loss (for ``argmax-and-labels``, the
count of right predictions): the same in every variant of a kind.
"""

import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met
import torch_xla.distributed.parallel_loader as pl

BATCHES = 8
dev = torch_xla.device()


def run(variant: str) -> tuple[float, int, float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to(dev).eval()
    data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(BATCHES)]
    loader = pl.MpDeviceLoader(data, dev) if variant.startswith("device-loader") else data
    torch_xla.sync()
    met.clear_all()
    total = 0.0
    kept = []
    meter = None
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(dev), y.to(dev)
            h = model[0](x)
            out = model[2](model[1](h))
            loss = torch.nn.functional.cross_entropy(out, y)
            if variant.endswith(("cut-before-read", "-cut-before")):
                torch_xla.sync()
            if variant.startswith("three-reads"):
                kept.append((out.cpu(), h.cpu()))
            if variant.startswith("format-per-sample"):
                labels = out.max(dim=1)[1].tolist()
                probs = torch.softmax(out, dim=1).max(dim=1)[0]
                for label, prob in zip(labels, probs, strict=True):
                    kept.append(f"{label} {prob:0.4f}")
                total += float(sum(labels))
                if variant.endswith("-cut-after"):
                    torch_xla.sync()
                continue
            if variant.startswith("meter"):
                total += float(loss)
                acc = (out.argmax(dim=1) == y).float().mean() * 100
                meter = acc * x.size(0) if meter is None else meter + acc * x.size(0)
                continue
            if variant.startswith("argmax-and-labels"):
                preds = out.detach().max(dim=1)[1].cpu().numpy()
                targets = y.cpu().numpy()
                total += float((preds == targets).sum())
                continue
            total += float(loss)
            if variant in ("cut-after-read", "three-reads-cut-after"):
                torch_xla.sync()
    if meter is not None:
        pending = len(torch_xla._XLAC._get_xla_tensors_text([meter]).splitlines())
        print(f"{variant:30s} pending IR nodes of the meter's sum before the last sync: {pending}")
    torch_xla.sync()
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    return executions / BATCHES, compiles, total


VARIANTS = (
    "none",
    "cut-before-read",
    "cut-after-read",
    "device-loader",
    "device-loader-cut-before-read",
    "three-reads",
    "three-reads-cut-before",
    "three-reads-cut-after",
    "format-per-sample",
    "format-per-sample-cut-after",
    "argmax-and-labels",
    "argmax-and-labels-cut-before",
    "meter",
    "meter-cut-before",
)
if len(sys.argv) == 1:
    for variant in VARIANTS:
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    per_batch, compiles, total = run(variant)
    print(
        f"{variant:30s} executions/batch {per_batch:.2f}  compiles {compiles:2d}  loss {total:.5f}"
    )
