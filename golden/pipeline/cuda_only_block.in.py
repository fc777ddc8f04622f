# Code that runs only where CUDA is there never runs on Trainium: a rewrite there changes only the
# CUDA run, so none is made. The blocks of a `torch.cuda.is_available()` the device pass leaves
# (it decides no device), of `device.startswith("cuda:")`, of a `"cuda"` test joined by `and` to
# such a check, and what `not torch.cuda.is_available() or ...` never evaluates; a bf16 check
# that only decides whether a hint is printed. Twin: cuda_only_block_twin.
import gc

import torch


class PeakMemory:
    def __enter__(self):
        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
            torch.cuda.reset_max_memory_allocated()
            self.begin = torch.cuda.memory_allocated()
        return self


def seed_everything(seed):
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def init_device(device):
    if device.startswith("cuda:"):
        torch.cuda.set_device(device)
    return device


def free_memory(args):
    if "cuda" in args.device and torch.cuda.is_available():
        torch.cuda.empty_cache()


def precision(training):
    if not torch.cuda.is_available() or torch.cuda.is_bf16_supported():
        return "bf16-mixed" if training else "bf16-true"
    return "16-mixed" if training else "16-true"


def default_precision(training):
    if torch.cuda.is_available():
        if torch.cuda.is_bf16_supported():
            return "bf16-mixed" if training else "bf16-true"
        return "16-mixed" if training else "16-true"
    return "bf16-mixed" if training else "bf16-true"


def hint(compute_dtype):
    if compute_dtype == torch.float16:
        if torch.cuda.is_bf16_supported():
            print("Your GPU supports bfloat16: pass --bf16")


def select_device(device=""):
    cpu = device == "cpu"
    if not cpu and torch.cuda.is_available():
        names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
        print("CUDA", names)
        arg = "cuda:0"
    else:
        arg = "cpu"
    return torch.device(arg)
