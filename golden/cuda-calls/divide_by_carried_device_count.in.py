# Class: the CUDA device count bound to a name or attribute (`args.nprocs =
# torch.cuda.device_count()`) and divided by later in the same function, or in the function it
# is passed to (`main_worker(args.local_rank, args.nprocs, args)` then `args.batch_size /
# nprocs`): 0 on Trainium, a certain ZeroDivisionError, a blocker at the count (twin:
# divide_by_carried_device_count_twin).
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=256)
parser.add_argument("--local_rank", type=int, default=0)


def main():
    args = parser.parse_args()
    args.nprocs = torch.cuda.device_count()
    main_worker(args.local_rank, args.nprocs, args)


def main_worker(local_rank, nprocs, args):
    args.batch_size = int(args.batch_size / nprocs)
    return local_rank


def split(args, total):
    args.world = torch.cuda.device_count()
    return total // args.world
