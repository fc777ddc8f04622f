# Class: options parsed into the program's own dataclasses by transformers' HfArgumentParser
# (`--field_name`, a bool `--flag [true|false]`): each field is its default unless a launch line
# sets it. `use_cpu` defaults to False and no launch line sets it: the model goes to the device.
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch_xla
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
    device = "cpu" if run_args.use_cpu else "xla"
    model = nn.Linear(4, model_args.hidden).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(run_args.steps):
        x = torch.randn(8, 4).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
