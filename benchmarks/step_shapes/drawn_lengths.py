"""Sequence lengths that change every step without a loader (TRN443, TRN444).

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/drawn_lengths.py

``STEPS`` training steps of an embedding + causal Conv1d + linear language model (a TCN
stand-in), each in its own process, printing graph compiles and executions (``CompileTime`` /
``ExecuteTime`` samples of torch_xla.debug.metrics):

- ``drawn``: awd-lstm-lm's length, drawn on the host every step (``bptt = BPTT if
  np.random.random() < 0.95 else BPTT / 2``; ``seq_len = max(5, int(np.random.normal(bptt,
  5)))``), the batch sliced to it from a source kept on the CPU and then moved (so the offset is
  no constant of the graph: only the length changes);
- ``drawn-buckets``: the same draw, rounded up to the next multiple of 8 (a few fixed lengths);
- ``fixed``: ``seq_len = BPTT`` every step;
- ``samples``: TCN's poly_music loop, one sequence a step (batch of one) from a list of
  sequences of 10 to 60 steps (``data_line = X_train[idx]``);
- ``samples-buckets``: the same sequences padded up to the next multiple of 16, the padding
  masked out of the loss.
"""

import subprocess
import sys

import numpy as np
import torch
import torch_xla
import torch_xla.debug.metrics as met

STEPS = 20
BPTT = 20
VOCAB = 50
dev = torch_xla.device()


class Model(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, 16)
        self.conv = torch.nn.Conv1d(16, 16, 3, padding=2)
        self.out = torch.nn.Linear(16, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # (batch, time)
        h = self.conv(self.embed(tokens).transpose(1, 2))[:, :, : tokens.shape[1]]
        return self.out(h.transpose(1, 2))


def lengths(variant: str) -> list[int]:
    if variant.startswith("drawn"):
        found = []
        for _ in range(STEPS):
            bptt = BPTT if np.random.random() < 0.95 else BPTT / 2.0
            found.append(max(5, int(np.random.normal(bptt, 5))))
        return found
    if variant.startswith("samples"):
        return [int(n) for n in np.random.randint(10, 61, size=STEPS)]
    return [BPTT] * STEPS


def run(variant: str) -> tuple[int, int, int, float]:
    np.random.seed(0)
    torch.manual_seed(0)
    model = Model().to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    source = torch.randint(0, VOCAB, (STEPS * 80, 4))  # (time, batch), on the CPU
    sizes = lengths(variant)
    torch_xla.sync()
    met.clear_all()
    offset = 0
    total = torch.zeros((), device=dev)
    for seq_len in sizes:
        if variant.startswith("samples"):
            line = torch.randint(0, VOCAB, (seq_len + 1,))
            mask = torch.ones(seq_len)
            if variant == "samples-buckets":
                width = -(-seq_len // 16) * 16
                line = torch.nn.functional.pad(line, (0, width - seq_len))
                mask = torch.nn.functional.pad(mask, (0, width - seq_len))
            data, target = line[:-1].unsqueeze(0), line[1:].unsqueeze(0)
        else:
            if variant == "drawn-buckets":
                seq_len = -(-seq_len // 8) * 8
            chunk = source[offset : offset + seq_len + 1]
            offset += seq_len
            data, target = chunk[:-1].t(), chunk[1:].t()
            mask = torch.ones(data.shape[1])
        data, target, mask = data.to(dev), target.to(dev), mask.to(dev)
        optimizer.zero_grad()
        losses = torch.nn.functional.cross_entropy(
            model(data).reshape(-1, VOCAB), target.reshape(-1), reduction="none"
        )
        loss = (losses.view(data.shape) * mask).sum() / (mask.sum() * data.shape[0])
        loss.backward()
        optimizer.step()
        total += loss.detach()
        torch_xla.sync()
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    return compiles, executions, len(set(sizes)), float(total)


if len(sys.argv) == 1:
    for variant in ("drawn", "drawn-buckets", "fixed", "samples", "samples-buckets"):
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    compiles, executions, distinct, total = run(variant)
    print(
        f"{variant:16s} compiles {compiles:2d}  executions {executions:2d} in {STEPS} steps "
        f"({distinct} distinct lengths drawn; loss sum {total:.3f})"
    )
