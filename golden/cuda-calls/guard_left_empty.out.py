# A guard whose block loses every statement goes with them when it only reads and has no else
# (no `if ...: pass` left behind); a guard with a call the tool cannot tell reads only stays. A
# guard that requires CUDA (a `torch.cuda.is_available()` the device pass leaves, `device_type ==
# "cuda"`) is left whole: its block never runs on Trainium (pipeline/cuda_only_block).
import torch


def setup(args, device_type, seed):
    torch.manual_seed(seed)
    if device_type == "cuda" and torch.cuda.is_available():
        torch.cuda.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    else:
        print("no CUDA")
    if args.log_memory():
        pass
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
        print("memory freed")
