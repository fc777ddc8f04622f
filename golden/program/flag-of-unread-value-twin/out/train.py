# Class: a device flag read from a value the tool cannot see is undecided. Twin: the flag is an
# option of the script's own parser, on by default and on every launch: the accelerator.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", type=int, default=1)
args = parser.parse_args()
device = torch.device("xla" if args.cuda else "cpu")
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
