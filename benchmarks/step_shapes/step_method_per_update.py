"""A one-step `update()` method (backward and `optimizer.step()` once, no loop of its own,
returns `.item()`s) called once per iteration of the caller's loop, as on-policy RL trainers do
(`agent.update(rollouts)` in `for j in range(num_updates):`, TRN101's step functions). Does the
graph grow without a cut, and where does the cut go?

    PJRT_DEVICE=CPU /work/xla-venv/bin/python benchmarks/step_shapes/step_method_per_update.py

An A2C stand-in: a small actor-critic MLP, a rollout of ``STEPS`` actions taken on the device
under `no_grad` and read back with `.cpu()` (a vectorised environment's `step`), then the
agent's `update` (RMSprop, gradient clipping, three `.item()`s returned), ``UPDATES`` times.
Variants: ``none`` (no cut: the parameters and optimizer state stay pending, each update's graph
holds every earlier one), ``cut-in-method`` (``torch_xla.sync()`` right after
``optimizer.step()`` in the method, before its reads: what the tool inserts) and
``cut-after-call`` (``torch_xla.sync()`` after ``agent.update(...)`` in the loop: after the
`.item()`s, which each run the forward pass first). Printed per variant, each in its own
process: graph executions and compiles (``ExecuteTime``/``CompileTime`` samples) over the
updates after the first two (warm-up), the IR lines pending on a parameter after the last
update, the wall time and the last value loss (equal with either cut; without one, the graph
that spans every update rounds differently, and RMSprop carries it: 0.7335 against 0.7309).
"""

import subprocess
import sys
import time

import torch
import torch_xla
import torch_xla.debug.metrics as met

UPDATES = 6
STEPS = 4
ENVS = 2
dev = torch_xla.device()


class ActorCritic(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(4, 64), torch.nn.Tanh())
        self.pi = torch.nn.Linear(64, 2)
        self.v = torch.nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h)


class A2C:
    def __init__(self, model, variant: str) -> None:
        self.model = model
        self.variant = variant
        self.optimizer = torch.optim.RMSprop(model.parameters(), 7e-4, eps=1e-5, alpha=0.99)

    def update(self, obs, actions, returns):
        dist, values = self.model(obs)
        advantages = returns - values
        value_loss = advantages.pow(2).mean()
        action_loss = -(advantages.detach() * dist.log_prob(actions).unsqueeze(-1)).mean()
        entropy = dist.entropy().mean()
        self.optimizer.zero_grad()
        (value_loss * 0.5 + action_loss - entropy * 0.01).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
        self.optimizer.step()
        if self.variant == "cut-in-method":
            torch_xla.sync()
        return value_loss.item(), action_loss.item(), entropy.item()


def run(variant: str) -> tuple[int, int, int, float, float]:
    torch.manual_seed(0)
    model = ActorCritic().to(dev)
    agent = A2C(model, variant)
    obs = torch.zeros(STEPS + 1, ENVS, 4, device=dev)
    actions = torch.zeros(STEPS, ENVS, dtype=torch.long, device=dev)
    torch_xla.sync()
    start = time.perf_counter()
    last = 0.0
    executions = compiles = 0
    for j in range(UPDATES):
        if j == 2:
            met.clear_all()
        with torch.no_grad():
            for step in range(STEPS):
                dist, _ = model(obs[step])
                action = dist.sample()
                action.cpu()  # the environment steps on the host
                actions[step].copy_(action)
                obs[step + 1].copy_(torch.randn(ENVS, 4).to(dev))
        returns = torch.randn(STEPS, ENVS, 1).to(dev)
        last, _, _ = agent.update(obs[:-1], actions, returns)
        if variant == "cut-after-call":
            torch_xla.sync()
        obs[0].copy_(obs[-1])
    elapsed = time.perf_counter() - start
    executions = met.metric_data("ExecuteTime")[0] if met.metric_data("ExecuteTime") else 0
    compiles = met.metric_data("CompileTime")[0] if met.metric_data("CompileTime") else 0
    parameter = next(model.parameters())
    pending = len(torch_xla._XLAC._get_xla_tensors_text([parameter]).splitlines())
    return executions, compiles, pending, elapsed, last


VARIANTS = ("none", "cut-in-method", "cut-after-call")
if len(sys.argv) == 1:
    for variant in VARIANTS:
        subprocess.run([sys.executable, __file__, variant], check=True)
for variant in sys.argv[1:]:
    executions, compiles, pending, elapsed, last = run(variant)
    print(
        f"{variant:15s} updates 3-{UPDATES}: executions {executions:3d}  compiles {compiles:3d}  "
        f"pending IR lines {pending:5d}  time {elapsed:6.2f} s  last value loss {last:.5f}"
    )
