# Class: a training script whose parser defines the launcher's rank option only as
# `--local_rank` (in a helper module), launched by `python -m torch.distributed.launch` on a
# README one folder above the scripts. From torch 2.0 that launcher passes
# `--local-rank=<rank>`, which the parser rejects (`unrecognized arguments: --local-rank=0`,
# measured): the dashed spelling is added beside it (TRN070), and the README, above the
# scripts' folder, is read as their launch. Found at first sight in LoRA's GPT-2 fine-tuning
# (examples/NLG/README.md launching src/gpt2_ft.py). Twin:
# local-rank-option-for-torch-launch-twin (launched by torchrun, which passes no option).
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from gpu import add_gpu_params, parse_gpu

parser = argparse.ArgumentParser()
add_gpu_params(parser)
parser.add_argument("--random_seed", default=10, type=int)
parser.add_argument("--lr", default=0.1, type=float)
args = parse_gpu(parser.parse_args())

device = torch.device("cuda", args.local_rank)
model = nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
for step in range(10):
    x, y = torch.randn(4, 8, device=device), torch.randint(0, 2, (4,), device=device)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
