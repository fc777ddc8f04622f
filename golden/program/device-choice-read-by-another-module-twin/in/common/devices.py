import torch


def pick_device():
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"
