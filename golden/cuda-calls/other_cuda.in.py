import torch
import torch.cuda.nvtx as nvtx


def profile(model, x):
    start = torch.cuda.Event(enable_timing=True)
    nvtx.range_push("forward")
    props = torch.cuda.get_device_properties(0)
    if torch.cuda.is_available():
        with torch.cuda.amp.autocast():
            y = model(x)
    freed = torch.cuda.empty_cache()
    return start, props, y, freed
