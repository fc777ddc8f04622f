# Class: the launch path reaches `sys.exit()` before any training step, under a test the target
# decides (`--cuda` is on by default and `torch.cuda.is_available()` is False there): the
# program ends there. "does not", at the exit (it said "runs" before: the exit was not taken
# for the end of the process).
import argparse
import sys

import torch
import torch_xla


def train(args):
    device = torch.device("xla" if args.cuda else "cpu")
    model = torch.nn.Linear(2, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(10):
        x = torch.randn(4, 2).to(device)
        model(x).sum().backward()
        optimizer.step()
        torch_xla.sync()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda", type=int, default=1, help="1 to train on the GPU, 0 on the CPU")
    args = parser.parse_args()
    if args.cuda and not torch.cuda.is_available():
        print("ERROR: cuda is not available, try running on CPU")
        sys.exit(1)
    train(args)


if __name__ == "__main__":
    main()
