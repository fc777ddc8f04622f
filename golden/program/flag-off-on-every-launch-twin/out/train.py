# The twin: the launch line passes `-no_cuda`, so the program trains on the CPU as launched:
# the blocker stays, and the verdict is "does not".
import argparse

import torch
import torch_xla
from torch.utils.data import DataLoader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-epoch", type=int, default=10)
    parser.add_argument("-no_cuda", action="store_true")
    opt = parser.parse_args()
    opt.cuda = not opt.no_cuda
    device = torch.device("xla" if opt.cuda else "cpu")
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in DataLoader(torch.randn(32, 4), batch_size=4):
        optimizer.zero_grad()
        model(x.to(device)).sum().backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
