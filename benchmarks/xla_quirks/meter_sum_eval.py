"""torch-xla 2.9: an evaluation loop that reads the loss every batch (``loss.item()``) and sums an
accuracy on the device in a meter (``top1.sum += acc1[0] * n``), read at every display.

    PJRT_DEVICE=CPU python meter_sum_eval.py

prints the graph executions of 20 batches (a display every 10) with no cut, with a cut at the
end of the loop body (after the read), and with a cut before the read. The shape of
pytorch/examples' ImageNet ``validate()``, whose cut at the end of the body the tool no longer
makes (regression check of 2026-12-06). Measured: no cut 23 executions, the cut after the read
40, the cut before it 23 (the forward then runs once a batch; with no cut each display runs the
10 forwards of its sum again).
"""

import torch
import torch_xla
import torch_xla.debug.metrics as met

dev = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)).to(
    dev
)
batches = [(torch.randn(8, 64).to(dev), torch.randint(0, 10, (8,)).to(dev)) for _ in range(20)]
torch_xla.sync()


def executions(cut: str) -> int:
    met.clear_all()
    total, top1 = 0.0, torch.zeros((), device=dev)
    for i, (x, y) in enumerate(batches):
        output = model(x)
        loss = torch.nn.functional.cross_entropy(output, y)
        acc1 = (output.argmax(1) == y).float().mean() * 100
        if cut == "before":
            torch_xla.sync()
        total += loss.item()
        top1 = top1 + acc1 * x.size(0)
        if cut == "after":
            torch_xla.sync()
        if i % 10 == 0:
            top1.item()  # the display reads the meter
    top1.item()
    data = met.metric_data("ExecuteTime")
    return data[0] if data else 0


with torch.no_grad():
    for cut in ("none", "after", "before"):
        executions(cut)  # the compiles
        print(f"cut {cut}: {executions(cut)} executions for {len(batches)} batches")
