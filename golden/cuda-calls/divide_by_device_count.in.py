# Class: a value divided by the CUDA device count (`rank % torch.cuda.device_count()`, the CUDA
# idiom for a process's GPU; `//` and `/` alike). The count is 0 on Trainium, so the script stops
# there with ZeroDivisionError: a blocker, not a note about what the count means (twin:
# divide_by_device_count_twin).
import torch
import torch.distributed as dist


def setup():
    dist.init_process_group("xla", init_method="xla://")
    rank = dist.get_rank()
    device = rank % torch.cuda.device_count()
    node = rank // torch.cuda.device_count()
    share = 1.0 / torch.cuda.device_count()
    return device, node, share
