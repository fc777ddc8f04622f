# Class: the training function run as a cluster job (`submitit.AutoExecutor(...).submit(trainer)`,
# a callable object whose `__call__` calls `main(args)`), with its options in a parent parser
# (`ArgumentParser(parents=[get_args_parser()])`): the launch path goes on into the job, so the
# entry point's verdict is shown from the step it runs, not "no training step".
# Twin: job-executor-runs-trainer-twin (the executor is built, no job submitted).
import argparse

import torch


def get_args_parser():
    parser = argparse.ArgumentParser("train", add_help=False)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--epochs", type=int, default=2)
    return parser


def main(args):
    device = torch.device(args.device)
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(args.epochs):
        loss = model(torch.randn(4, 8, device=device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser("train", parents=[get_args_parser()])
    main(parser.parse_args())
