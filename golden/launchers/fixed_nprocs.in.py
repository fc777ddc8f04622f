import argparse

import torch
import torch.multiprocessing as mp


def run(rank, world_size):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=int, default=2)
args = parser.parse_args()
# The process count is the user's: nothing ties it to CUDA (no TRN025); the processes still get no NeuronCore each (TRN168).
mp.spawn(run, args=(2,), nprocs=2)
mp.spawn(run, args=(args.gpus,), nprocs=args.gpus)
