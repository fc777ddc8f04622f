# Twin of divide_by_device_count: the count divided, multiplied or compared (not a divisor) is
# reported as a count of CUDA devices, as before; a division on a branch only some launches take
# is reported at the division, and neither is a blocker.
import os

import torch


def sizes(batch_size):
    per_device = torch.cuda.device_count() // 2
    total = batch_size * torch.cuda.device_count()
    several = torch.cuda.device_count() > 1
    return per_device, total, several


def init_distributed_mode(args):
    # A division on one launch's branch only (SLURM): reported at the division, and no blocker,
    # since the launches that do not take the branch never run it.
    if "RANK" in os.environ:
        args.gpu = int(os.environ["LOCAL_RANK"])
    elif "SLURM_PROCID" in os.environ:
        args.gpu = int(os.environ["SLURM_PROCID"]) % torch.cuda.device_count()
    return args
