# pytorch/examples imagenet/mnist: `--no-accel` is an opt-out, on by default: the check is
# resolved and the device is the accelerator; the CPU branch (the user's opt-out) is kept.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--no-accel", action="store_true", help="disables accelerator")
args = parser.parse_args()

use_accel = not args.no_accel
if use_accel:
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
