# pytorch/examples word_language_model: `--accel` is an opt-in flag whose off branch is the CPU.
# The availability check is resolved (the flag is kept), but the CPU branch is the user's
# choice: rewriting it would make the flag choose nothing, so it is kept and reported.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--accel", action="store_true", help="Enables accelerated training")
args = parser.parse_args()

if args.accel:
    device = torch_xla.device()
else:
    device = torch.device("cpu")

model = nn.Linear(8, 8).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(4, 8).to(device)
    loss = model(x).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
