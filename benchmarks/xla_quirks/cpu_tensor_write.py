"""torch-xla 2.9: an evaluation loop that writes each batch's loss into a CPU tensor
(``losses = torch.zeros(n)``; ``losses[k] = loss``) reads the device every batch, and a graph cut
in that loop costs a second execution a batch, before the write or after it.

    PJRT_DEVICE=CPU python cpu_tensor_write.py
    # no cut: 7 executions for 6 batches; cut after the write: 12; before it: 12 (11 and 11
    # in an earlier run of the same loop)

The write copies the loss to the host, which runs the forward's graph. A cut after it runs the
forward again for the logits still alive; a cut before it leaves the loss's own ops to a graph
of their own. Nothing is carried on the device from batch to batch, so no cut is needed. The
shape of litgpt's ``validate()`` (``litgpt/finetune/*.py``), a member of the class "evaluation
loops that read a value on the host every batch and carry nothing on the device".
"""

import torch
import torch_xla
import torch_xla.debug.metrics as met

dev = torch_xla.device()
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64)).to(
    dev
)
batches = [torch.randn(8, 64).to(dev) for _ in range(6)]
torch_xla.sync()


def executions(cut: str) -> int:
    losses = torch.zeros(len(batches))
    met.clear_all()
    for k, x in enumerate(batches):
        logits = model(x)
        if cut == "before":
            torch_xla.sync()
        losses[k] = (logits * logits).mean()
        if cut == "after":
            torch_xla.sync()
    torch_xla.sync()
    data = met.metric_data("ExecuteTime")
    return data[0] if data else 0


with torch.no_grad():
    for cut in ("none", "after", "before"):
        executions(cut)  # the compiles
        print(f"cut {cut}: {executions(cut)} executions for {len(batches)} batches")
