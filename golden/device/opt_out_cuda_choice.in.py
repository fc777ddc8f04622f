# Class: the device chosen by the user's opt-out flag, CUDA on its `else` side
# (`torch.device("cpu" if args.no_cuda else "cuda")`): the flag is off by default, so the CUDA
# branch is the one that runs; it becomes the target's device and the flag keeps choosing the CPU.
# Twin: opt_out_cuda_choice_twin.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--no_cuda", action="store_true")
args = parser.parse_args()
args.device = torch.device("cpu" if args.no_cuda else "cuda")
device = "cpu" if args.no_cuda else "cuda:0"

model = torch.nn.Linear(8, 2).to(args.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(4, 8, device=device)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
