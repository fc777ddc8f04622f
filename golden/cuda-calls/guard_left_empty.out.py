# A guard whose block loses every statement goes with them when it only reads and has no else
# (no `if ...: pass` left behind); a guard with an else, with a call the tool cannot tell reads
# only, or with a statement left in its block stays.
import torch


def setup(args, device_type, seed):
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        pass
    else:
        print("no CUDA")
    if args.log_memory():
        pass
    if torch.cuda.is_available():
        print("memory freed")
