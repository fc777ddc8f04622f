# Twin of job-executor-runs-trainer: the submitit launcher builds its executor but submits no
# job (it only prints what it would run), so nothing trains on its launch path: "no training
# step" for it, while main.py runs.
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
