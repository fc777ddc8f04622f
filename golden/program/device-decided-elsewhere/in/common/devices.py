import torch


def autodetect_device_type():
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"
