# Class: the process group's backend written as a literal on the options object just above the
# call (`args.dist_backend = 'nccl'`, then `init_process_group(backend=args.dist_backend, ...)`:
# the `init_distributed_mode` of the DeiT/MAE/DETR/ConvNeXt family): NCCL needs CUDA, so the
# literal is rewritten where it is written, with the xla backend's import; `init_method` (an
# `env://` URL under torchrun) is kept (measured: the xla backend initialises from env:// and
# all-reduces on XLA:CPU).
# Twin: backend_literal_above_group_twin.
import os

import torch


def init_distributed_mode(args):
    args.rank = int(os.environ["RANK"])
    args.world_size = int(os.environ["WORLD_SIZE"])
    args.distributed = True
    args.dist_backend = 'nccl'
    print('| distributed init (rank {}): {}'.format(args.rank, args.dist_url), flush=True)
    torch.distributed.init_process_group(backend=args.dist_backend, init_method=args.dist_url,
                                         world_size=args.world_size, rank=args.rank)
    torch.distributed.barrier()
