"""The process group's backend comes from a JSON configuration the evaluator does not read: only
"xla" serves XLA tensors (NCCL finds no GPU), so whether the distributed run trains is not shown."""

import argparse
import json
import os

import torch
import torch.distributed as dist
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="config.json")
    args = parser.parse_args()
    with open(args.config) as handle:
        cfg = json.load(handle)
    dist.init_process_group(backend=cfg["backend"], init_method="env://")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", rank)
    model = nn.parallel.DistributedDataParallel(nn.Linear(8, 2).to(device))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 8, device=device)
        y = torch.randint(0, 2, (16,), device=device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
