# Class: a process launcher sized by the CUDA device count, through an attribute, with `args` and
# `nprocs` passed by position (`mp.spawn(fn, (args,), args.ngpus_per_node)`): 0 processes on
# Trainium, so the worker never runs; the entry point does not run, blocker at the launcher.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)


def main():
    args = parser.parse_args()
    args.ngpus_per_node = torch.cuda.device_count()
    args.world_size = args.ngpus_per_node
    torch.multiprocessing.spawn(main_worker, (args,), args.ngpus_per_node)


def main_worker(gpu, args):
    model = torch.nn.Linear(4, 4).cuda(gpu)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 4))
    for _ in range(args.epochs):
        for (x,) in torch.utils.data.DataLoader(data, batch_size=2):
            x = x.cuda(gpu)
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


if __name__ == "__main__":
    main()
