# Class: a process group whose backend is held in a name chosen by CUDA availability (`"gloo" if
# not torch.cuda.is_available() else "nccl"`, either way round). No pass rewrites that choice, so
# on Trainium, where `torch.cuda.is_available()` is False (data/device_facts.toml), it is gloo:
# the group starts, and DDP of a model on the XLA device then raises
# (benchmarks/xla_quirks/gloo_xla_ddp.py). Reported as gloo, not as a "nccl" blocker (twin:
# backend_chosen_by_cuda_twin).
import os

import torch as th
import torch.distributed as dist


def setup_dist():
    if dist.is_initialized():
        return
    backend = "gloo" if not th.cuda.is_available() else "nccl"
    if backend == "gloo":
        os.environ["MASTER_ADDR"] = "localhost"
    dist.init_process_group(backend=backend, init_method="env://")


def setup_other_way_round(rank, world_size):
    backend = "nccl" if th.cuda.is_available() else "gloo"
    dist.init_process_group(backend, rank=rank, world_size=world_size)
