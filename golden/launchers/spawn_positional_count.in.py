# Class: a launcher sized by the CUDA count with `nprocs` by position, through an attribute bound
# once (`mp.spawn(fn, (args,), args.ngpus_per_node)`): TRN025 at the launcher, naming the count.
# Twin below: a count by position that is the user's (`args.gpus`) is TRN168's, not TRN025's.
import argparse

import torch
import torch.multiprocessing as mp


def main_worker(gpu, args):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=int, default=2)
args = parser.parse_args()
args.ngpus_per_node = torch.cuda.device_count()
mp.spawn(main_worker, (args,), args.ngpus_per_node)
mp.spawn(main_worker, (args,), args.gpus)
