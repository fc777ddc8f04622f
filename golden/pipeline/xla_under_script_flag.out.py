# Class: a training script that imports torch_xla only under its own flag (a partial TPU path,
# `if args.tpu: import torch_xla...`). That is not a library keeping torch_xla optional: the
# port makes torch_xla required like any other, so the default path is ported too (the device,
# the graph cut), instead of every rewrite being reported as "not applied" while the script
# trains on the CPU unless the flag is passed.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--tpu", action="store_true")
args = parser.parse_args()

if args.tpu:

    device = torch_xla.device()
else:
    device = torch_xla.device()

model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.AdamW(model.parameters())
for step in range(100):
    x = torch.randn(8, 16).to(device)
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    optimizer.zero_grad()
