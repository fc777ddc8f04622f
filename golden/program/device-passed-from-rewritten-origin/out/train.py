# Class: a device built once from a process's index (`torch.device("cuda", local_rank)`) and
# handed, as a parameter, to the module's own functions (at any depth, a method included), which
# move the model, the losses' weights and each batch with it: the device is rewritten where it is
# built (TRN024), once, and every use inside those functions is left as written; the parameter
# already holds the target's device. `evaluate` of evaluate.py is called from here too, so its
# uses keep their own rewrite there: this module's callers are not all of its callers; so do
# those of `Scorer.score`, a method of a module another imports (an instance may be handed
# there), while `load`, which only evaluate.py calls, is rewritten at evaluate.py's origin. Twin
# (device-passed-from-rewritten-origin-twin): a smoke test also calls `build_model(0)`, a literal
# index, so the uses in `build_model` are rewritten where they are.
import os

import torch
import torch_xla

from evaluate import evaluate


class Weights:
    def __init__(self, values, device):
        self.values = torch.tensor(values).to(device)

    def scale(self, loss, device):
        return loss * torch.ones((), device=device)


def build_model(device):
    model = torch.nn.Linear(4, 4)
    return model.to(device)


def train(model, optimizer, weights, steps, device):
    for _ in range(steps):
        x = torch.randn(8, 4).to(device, non_blocking=True)
        y = torch.zeros(8, 4, device=device)
        loss = weights.scale((weights.values * (model(x) - y) ** 2).mean(), device)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def fit(steps, device):
    model = build_model(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, Weights([1.0, 1.0, 1.0, 1.0], device), steps, device)
    evaluate(model, device)


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch_xla.device()
    fit(10, device)


if __name__ == "__main__":
    main()
