# Class: a module-level device choice on a command-line flag (`--cuda`, a store_true option
# whose default is False) in a program of several modules, where every launch line sets the
# flag. The program's run reads the flag as the launch lines give it: True, so the choice is
# the accelerator once its "cuda" is the target's device; no blocker. Found at first sight in a
# language-model repository (Transformer-XL's shell launchers all pass `--cuda`), where the
# option's default (False) was read instead and the choice called a blocker. Twin:
# device-flag-set-by-every-launch-twin, whose launch line leaves the flag out.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

from batches import batch

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true", help="use CUDA")
parser.add_argument("--lr", type=float, default=0.1)
args = parser.parse_args()

device = torch.device("xla" if args.cuda else "cpu")
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
for step in range(10):
    x, y = batch(device)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
