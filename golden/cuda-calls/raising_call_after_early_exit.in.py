# Class: a CUDA call that raises without CUDA, placed after an early exit that Trainium always
# takes (`if not torch.cuda.is_available() or not flash: return`, lucidrains' attend.py;
# nanochat's flash-attention probe; `continue` in a loop): never reached there, so no blocker.
# The twin (raising_call_after_early_exit_twin) exits on a test Trainium does not decide.
import torch


class Attend:
    def __init__(self, flash=False):
        self.cuda_config = None
        if not torch.cuda.is_available() or not flash:
            return
        properties = torch.cuda.get_device_properties(torch.device("cuda"))
        self.cuda_config = properties.major >= 8


def load_fa3():
    if not torch.cuda.is_available():
        return None
    try:
        major, _ = torch.cuda.get_device_capability()
    except Exception:
        return None
    return major


def report(devices):
    for device in devices:
        if not torch.cuda.is_available():
            continue
        print(torch.cuda.memory_summary(device))
