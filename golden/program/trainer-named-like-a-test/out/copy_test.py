# Class: a training script named like a test (`*_test.py`, as TCN's `copymem_test.py`) whose
# `__main__` block trains, and whose `test_epoch` is its own evaluation: a program, with an
# entry point and a verdict, its blockers blockers.
import argparse

import torch
import torch.nn.functional as F
import torch_xla

from model import Net


def train(model, optimizer, data):
    model.train()
    device = torch_xla.device()
    for x, y in data:
        optimizer.zero_grad()
        loss = F.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def test_epoch(model, data):
    model.eval()
    with torch.no_grad():
        return [F.mse_loss(model(x.to(torch_xla.device())), y.to(torch_xla.device())) for x, y in data]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    model = Net().to(torch_xla.device())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
    for epoch in range(args.epochs):
        train(model, optimizer, data)
        print(epoch, test_epoch(model, data))
    print(torch.cuda.memory_summary())
