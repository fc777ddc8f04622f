"""Class: modules of the program imported by their bare names (`from transformer import
Transformer`, `from solver import Solver`) through folders the launch script puts on PYTHONPATH
(`src/transformer/`, `src/solver/`), beside packages of the same names: `transformer` names the
module that defines `Transformer`, not the empty package `src/transformer/__init__.py`, and the
run is followed into the solver that trains the model ("cannot tell" before: the step called no
model the evaluator could follow)."""

import argparse

import torch
from transformer import Transformer
from solver import Solver


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    model = Transformer()
    model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    Solver(model, optimizer, args.epochs).train()


if __name__ == "__main__":
    main()
