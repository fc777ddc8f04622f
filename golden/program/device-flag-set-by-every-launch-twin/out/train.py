# Twin of device-flag-set-by-every-launch: the launch line leaves `--cuda` out, so the flag is
# False on the documented run and the device is the CPU while the batches are moved by another
# module: the choice stays a blocker.
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
