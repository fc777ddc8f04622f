# A `store_true` flag off by default and on no launch line (`-no_cuda`) decides the device:
# the evaluator shows the device is the accelerator on every known launch, so the finding
# that the flag is "set outside what the tool can see" is not a blocker (issue 34).
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
