# Prints under a rank-0 guard work unchanged under torch_xla (the guard reads the same rank):
# no xm.master_print, nothing to report (issue 23).
import sys

import torch.distributed as dist
import torch_xla.core.xla_model as xm


def report(epoch, loss, args, rank):
    # end of epoch
    if dist.get_rank() == 0:
        print(f"epoch {epoch} done")
        print("loss", loss, file=sys.stderr)
    if args.local_rank in (-1, 0): print("local master")  # note
    if 0 == rank:
        print("rank zero")
    if xm.is_master_ordinal(local=False):
        print("global master")
