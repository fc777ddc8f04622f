# Twin of divide_by_carried_device_count: the count bound to a name and only compared (`> 1`),
# multiplied, or divided by in a function it is not passed to, or rebound before a division:
# reported, no blocker.
import torch


def main(args):
    args.nprocs = torch.cuda.device_count()
    if args.nprocs > 1:
        print("several devices")
    total = args.batch_size * args.nprocs
    worker(args.local_rank, args)
    return total


def worker(local_rank, args):
    return local_rank


def shard(total):
    gpus = torch.cuda.device_count()
    gpus = max(gpus, 1)
    return total // gpus
