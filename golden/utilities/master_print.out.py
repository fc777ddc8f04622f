import sys

import torch.distributed as dist
import torch_xla.core.xla_model as xm


def report(epoch, loss, args, rank):
    # end of epoch
    xm.master_print(f"epoch {epoch} done")
    xm.master_print("loss", loss, fd=sys.stderr)
    xm.master_print("local master", local=True)  # note
    xm.master_print("rank zero")
    xm.master_print("global master")
