# Twin of local-rank-option-for-torch-launch: the README launches the script with torchrun,
# which sets LOCAL_RANK in the environment and passes no option, so the parser is left as it
# is.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

from gpu import add_gpu_params, parse_gpu

parser = argparse.ArgumentParser()
add_gpu_params(parser)
parser.add_argument("--random_seed", default=10, type=int)
parser.add_argument("--lr", default=0.1, type=float)
args = parse_gpu(parser.parse_args())

device = torch_xla.device()
model = nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
for step in range(10):
    x, y = torch.randn(4, 8, device=device), torch.randint(0, 2, (4,), device=device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
