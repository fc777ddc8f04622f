import torch


def report(rank):
    world_size = torch.cuda.device_count()
    name = torch.cuda.get_device_name(0)
    used = torch.cuda.memory_allocated() / 2**30
    peak = torch.cuda.max_memory_allocated()
    dev = torch.cuda.current_device()
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return world_size, name, used, peak, dev, dtype
