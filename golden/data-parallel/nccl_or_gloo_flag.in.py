import argparse

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--nccl", action="store_true")


def main(args):
    # The user's flag, not an availability test, chooses the backend: reported, not rewritten.
    dist.init_process_group("nccl" if args.nccl else "gloo")
    model = DDP(torch.nn.Linear(4, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        model(torch.randn(2, 4)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main(parser.parse_args())
