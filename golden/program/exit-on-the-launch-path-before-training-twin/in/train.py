# Twin of exit-on-the-launch-path-before-training: the process exits with what `main()` returns,
# after it trained (`sys.exit(main())`), and the check that would stop it asks for the CPU
# flag, off by default: the step runs, and the exit after it changes nothing.
import argparse
import sys

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    if args.cpu and torch.cuda.is_available():
        print("ERROR: --cpu given on a machine with a GPU")
        sys.exit(1)
    device = torch.device("cpu" if args.cpu else "cuda")
    model = torch.nn.Linear(2, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(10):
        x = torch.randn(4, 2).to(device)
        model(x).sum().backward()
        optimizer.step()
    return 0


if __name__ == "__main__":
    sys.exit(main())
