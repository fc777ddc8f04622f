"""Training loops that read values on the host every iteration after a step (TRN101): where
does the graph cut go?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/train_host_read.py

Two shapes, each with the cut where the tool put it before and where it puts it now:

* ``critic`` (a critic that steps every iteration, its two losses read with ``.item()`` right
  after its step, and a generator that steps every ``N_CRITIC`` iterations under an ``if``,
  reading its loss after its step): ``critic-cut-after-if`` (one cut after the ``if`` that holds
  the generator's step, after every read) against ``critic-cut-before-reads`` (one cut right
  after the critic's step, before its reads);
* ``two-pass`` (a sharpness-aware step: two forward-backward passes and two optimizer calls the
  tool does not know as steps, ``first_step``/``second_step``, then under ``torch.no_grad()`` an
  accuracy computed from the first pass's outputs and the loss and accuracy read with
  ``.cpu()``): ``two-pass-cut-at-end`` (at the end of the body, after the reads) against
  ``two-pass-cut-before-read`` (inside the ``with``, right before the statement that reads).

Printed per variant, each in its own process so that no compile is cached from another: graph
executions per iteration and compiles (``ExecuteTime``/``CompileTime`` samples of
torch_xla.debug.metrics) over ``STEPS`` iterations (the last sync after the loop included), and
the sum of the values read: the same in both variants of a shape.
"""

import subprocess
import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met

STEPS = 8
N_CRITIC = 4
dev = torch_xla.device()


def critic(variant: str) -> tuple[float, int, float]:
    torch.manual_seed(0)
    generator = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh()).to(dev)
    critic = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    critic.to(dev)
    optimizer_g = torch.optim.SGD(generator.parameters(), lr=0.01)
    optimizer_d = torch.optim.SGD(critic.parameters(), lr=0.01)
    data = [torch.randn(4, 16) for _ in range(STEPS)]
    torch_xla.sync()
    met.clear_all()
    total = 0.0
    for i, x in enumerate(data):
        real = x.to(dev)
        z = torch.randn(4, 8, device=dev)
        loss_real = -critic(real).mean()
        loss_fake = critic(generator(z).detach()).mean()
        optimizer_d.zero_grad()
        (loss_real + loss_fake).backward()
        optimizer_d.step()
        if variant == "critic-cut-before-reads":
            torch_xla.sync()
        total += loss_real.item() + loss_fake.item()
        if (i + 1) % N_CRITIC == 0:
            optimizer_g.zero_grad()
            loss_g = -critic(generator(z)).mean()
            loss_g.backward()
            optimizer_g.step()
            total += loss_g.item()
        if variant == "critic-cut-after-if":
            torch_xla.sync()
    torch_xla.sync()
    return _counts(total)


def two_pass(variant: str) -> tuple[float, int, float]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.to(dev)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(STEPS)]
    torch_xla.sync()
    met.clear_all()
    total = 0.0
    for batch in data:
        inputs, targets = (b.to(dev) for b in batch)
        predictions = model(inputs)
        loss = torch.nn.functional.cross_entropy(predictions, targets)
        loss.backward()
        optimizer.step()  # the first step of a two-pass optimizer
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(inputs), targets).backward()
        optimizer.step()  # and its second
        optimizer.zero_grad()
        with torch.no_grad():
            correct = torch.argmax(predictions.data, 1) == targets
            if variant == "two-pass-cut-before-read":
                torch_xla.sync()
            total += float(loss.cpu()) + float(correct.cpu().sum())
        if variant == "two-pass-cut-at-end":
            torch_xla.sync()
    torch_xla.sync()
    return _counts(total)


def _counts(total: float) -> tuple[float, int, float]:
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    return executions / STEPS, compiles, total


VARIANTS = (
    "critic-cut-after-if",
    "critic-cut-before-reads",
    "two-pass-cut-at-end",
    "two-pass-cut-before-read",
)
if len(sys.argv) == 1:
    for variant in VARIANTS:
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    per_step, compiles, total = (critic if variant.startswith("critic") else two_pass)(variant)
    print(
        f"{variant:28s} executions/iteration {per_step:.2f}  compiles {compiles:2d}  sum {total:.5f}"
    )
