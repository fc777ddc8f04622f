# Twin of device-passed-from-rewritten-origin: a smoke test calls `build_model(0)`, a literal
# CUDA index, beside `fit`'s call with the device built in `main`: the parameter may hold the
# index, so each use of it in `build_model` is rewritten where it is (TRN024), as are the uses in
# `evaluate` and `Scorer.score` of evaluate.py, which this module imports. The other functions
# are only called with the device built in `main`: rewritten there once.
import os

import torch

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


def fit(steps, device):
    model = build_model(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, Weights([1.0, 1.0, 1.0, 1.0], device), steps, device)
    evaluate(model, device)


def smoke_test():
    model = build_model(0)
    return model(torch.randn(2, 4).to(0)).shape


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local_rank)
    fit(10, device)


if __name__ == "__main__":
    main()
