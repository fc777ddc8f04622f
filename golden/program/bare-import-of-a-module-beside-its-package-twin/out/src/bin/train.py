"""Twin: the package of that name defines what is imported itself (`from .transformer import
Transformer` in `src/transformer/__init__.py`): the import names the package, as before, and
the run follows it there."""

import argparse

import torch
import torch_xla
from transformer import Transformer
from solver import Solver


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    model = Transformer()
    model.to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    Solver(model, optimizer, args.epochs).train()


if __name__ == "__main__":
    main()
