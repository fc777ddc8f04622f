# golden: target=xla-2.1
import torch as th


def sync_and_free():
    th.cuda.synchronize()
    th.cuda.empty_cache()


def pick(rank):
    if rank >= 0: th.cuda.set_device(rank)
    return rank
