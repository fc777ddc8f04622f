"""Conditional optimizer steps are not gradient accumulation (TRN101, issue 35 item 3).

A WGAN stand-in: the critic steps every iteration, the generator every ``N_CRITIC``. Where does
the graph cut go?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/critic_steps.py

``inside-if``: after ``optimizer_G.step()`` inside the generator's ``if`` (what the tool inserted
when it took the ``if`` for a gradient-accumulation boundary): one graph spans ``N_CRITIC``
critic steps. ``after-if``: after the ``if``, once per iteration (the fix). Printed per variant:
graph executions and compiles over ``ITERATIONS`` iterations (``ExecuteTime``/``CompileTime``
samples of torch_xla.debug.metrics), the largest graph's IR node count, and the final critic
loss (the same in both: the cut moves no value).
"""

import sys

import torch
import torch_xla
import torch_xla.debug.metrics as met

ITERATIONS = 20
N_CRITIC = 5
dev = torch_xla.device()


def _pending_nodes(*models: torch.nn.Module) -> int:
    """IR nodes of the pending graph that the cut is about to execute (every parameter's)."""
    tensors = [p for model in models for p in model.parameters()]
    text = torch_xla._XLAC._get_xla_tensors_text(tensors)
    return sum(1 for line in text.splitlines() if " = " in line)


def run(variant: str) -> tuple[int, int, int, float]:
    torch.manual_seed(0)
    generator = torch.nn.Sequential(
        torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16)
    )
    critic = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
    generator.to(dev)
    critic.to(dev)
    optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=5e-5)
    optimizer_D = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    batches = [torch.randn(4, 16) for _ in range(ITERATIONS)]
    noise = [torch.randn(4, 8) for _ in range(ITERATIONS)]
    largest = 0
    torch_xla.sync()
    met.clear_all()
    for i, imgs in enumerate(batches):
        real = imgs.to(dev)
        optimizer_D.zero_grad()
        z = noise[i].to(dev)
        fake = generator(z).detach()
        loss_D = -torch.mean(critic(real)) + torch.mean(critic(fake))
        loss_D.backward()
        optimizer_D.step()
        for p in critic.parameters():
            p.data.clamp_(-0.01, 0.01)
        if i % N_CRITIC == 0:
            optimizer_G.zero_grad()
            loss_G = -torch.mean(critic(generator(z)))
            loss_G.backward()
            optimizer_G.step()
            if variant == "inside-if":
                largest = max(largest, _pending_nodes(critic, generator))
                torch_xla.sync()
        if variant == "after-if":
            largest = max(largest, _pending_nodes(critic, generator))
            torch_xla.sync()
    torch_xla.sync()
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    loss = float(loss_D.detach().cpu())
    return executions, compiles, largest, loss


for variant in sys.argv[1:] or ("inside-if", "after-if"):
    executions, compiles, largest, loss = run(variant)
    print(
        f"{variant:10s} executions {executions:3d}  compiles {compiles:3d}  "
        f"largest graph {largest:4d} IR nodes  loss_D {loss:.6f}"
    )
