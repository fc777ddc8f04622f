# The twin: the same evaluation run on every launch (no flag): the blocker stays.
import argparse

import torch
import torch_xla

from data import make_loader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--evaluate", action="store_true")
    args = parser.parse_args()
    model = torch.nn.DataParallel(torch.nn.Linear(8, 2)).to(torch_xla.device())
    for x, y in make_loader():
        output = model(x)
        print((output.argmax(1) == y).sum())
        torch_xla.sync()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for x, y in make_loader():
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
