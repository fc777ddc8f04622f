"""The process group's backend is an option whose default the evaluator reads: "nccl" on every
launch, decided, so the run does not train (a blocker at the call, TRN143), not "cannot tell"."""

import argparse
import os

import torch
import torch.distributed as dist
import torch_xla
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="nccl")
    args = parser.parse_args()
    dist.init_process_group(backend=args.backend, init_method="env://")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch_xla.device()
    model = nn.parallel.DistributedDataParallel(nn.Linear(8, 2).to(device), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(16, 8, device=device)
        y = torch.randint(0, 2, (16,), device=device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
