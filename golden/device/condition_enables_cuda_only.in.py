# A test of the device's type whose true side cannot run on Trainium is kept as it is, with one
# finding naming the line: nanoGPT's fused AdamW (through two names), imagenet's device count,
# a fused option set in a dict, the GPU's name in the else of a `!=` test, fp8, a CUDA assert.
import inspect

import torch


def configure_optimizers(model, learning_rate, device_type):
    fused_available = "fused" in inspect.signature(torch.optim.AdamW).parameters
    use_fused = fused_available and device_type == "cuda"
    extra_args = dict(fused=True) if use_fused else dict()
    return torch.optim.AdamW(model.parameters(), lr=learning_rate, **extra_args)


def processes_per_node(device):
    if device.type == "cuda":
        return torch.accelerator.device_count()
    return 1


def optimizer_options(device):
    return {"lr": 1e-3, "fused": device.type == "cuda"}


def describe(device):
    if device.type != "cuda":
        return "cpu"
    else:
        return torch.cuda.get_device_name()


def weight_dtype(device):
    return torch.float8_e4m3fn if device.type == "cuda" else torch.bfloat16


def check(device):
    if not device.type == "cuda":
        return
    assert torch.cuda.is_available()
