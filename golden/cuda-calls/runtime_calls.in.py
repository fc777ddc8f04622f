import time

import torch


def setup(local_rank, seed):
    torch.manual_seed(seed)
    # CUDA seeds
    torch.cuda.manual_seed_all(seed)
    torch.cuda.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)


def timed_step(model, x):
    torch.cuda.reset_peak_memory_stats()
    start = time.time()
    out = model(x)
    torch.cuda.synchronize()
    elapsed = time.time() - start
    torch.cuda.empty_cache(); print(elapsed)
    return out


def cleanup():
    torch.cuda.empty_cache()
