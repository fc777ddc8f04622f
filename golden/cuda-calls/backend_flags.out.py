import torch
import torch.backends.cudnn as cudnn


def configure(args):
    torch.backends.cudnn.enabled = bool(args.cudnn)
    return cudnn.benchmark
