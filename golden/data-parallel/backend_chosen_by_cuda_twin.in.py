# Twin of backend_chosen_by_cuda: a choice by a test that is not a call the target's facts make
# False (a comparison of the device count, a flag) is not read as gloo: it is reported as a
# backend the tool does not decide, as before.
import torch
import torch.distributed as dist


def setup_dist():
    backend = "nccl" if torch.cuda.device_count() > 0 else "gloo"
    dist.init_process_group(backend=backend, init_method="env://")


def setup_by_flag(use_gpu):
    backend = "nccl" if use_gpu else "gloo"
    dist.init_process_group(backend)
