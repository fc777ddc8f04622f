import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true", help="use CUDA")
args = parser.parse_args()

# Off by default: the tool cannot flip the user's flag, so it says the script stays on the CPU.
model = torch.nn.Linear(4, 4)
if args.cuda:
    model.cuda()
for step in range(10):
    x = torch.randn(2, 4)
    if args.cuda:
        x = x.cuda()
    model(x).sum().backward()
