# Class: options parsed into the program's own dataclasses by transformers' HfArgumentParser
# (`--field_name`, a bool `--flag [true|false]`): each field is its default unless a launch line
# sets it. Twin: the launch line passes `--use_cpu true`: the model stays on the CPU.
from dataclasses import dataclass, field

import torch
import torch.nn as nn
from transformers import HfArgumentParser


@dataclass
class ModelArguments:
    hidden: int = field(default=16)


@dataclass
class RunArguments:
    use_cpu: bool = field(default=False, metadata={"help": "train on the CPU"})
    steps: int = 100


def main():
    parser = HfArgumentParser((ModelArguments, RunArguments))
    model_args, run_args = parser.parse_args_into_dataclasses()
    device = "cpu" if run_args.use_cpu else "cuda"
    model = nn.Linear(4, model_args.hidden).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(run_args.steps):
        x = torch.randn(8, 4).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
