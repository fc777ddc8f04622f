# Class: a DataParallel model fed a batch it scattered on CUDA, in an evaluation run only where a
# flag no launch line passes is given (`--evaluate`): the blocker that the CPU batch meets the
# model's XLA weights is off the launch path (a warning that says so).
import argparse

import torch

from data import make_loader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--evaluate", action="store_true")
    args = parser.parse_args()
    model = torch.nn.DataParallel(torch.nn.Linear(8, 2)).cuda()
    if args.evaluate:
        for x, y in make_loader():
            output = model(x)
            print((output.argmax(1) == y).sum())
        return
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in make_loader():
        x, y = x.cuda(), y.cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
