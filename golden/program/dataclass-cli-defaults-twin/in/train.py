# Class: options parsed into the program's own dataclass by a command-line library (tyro): each
# field is its default unless a launch line sets it. Twin: every launch line passes `--no-cuda`, so
# the model stays on the CPU whatever the tool rewrites.
from dataclasses import dataclass

import torch
import torch.nn as nn
import tyro


@dataclass
class Args:
    seed: int = 1
    cuda: bool = True
    learning_rate: float = 2.5e-4


if __name__ == "__main__":
    args = tyro.cli(Args)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    for step in range(100):
        x = torch.randn(8, 4, device=device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
