# Class: a device's identity test conjoined with `not torch.cuda.is_available()`, the "CUDA was
# asked for where there is none: use the CPU" fallback (stable-baselines3's `get_device`). Made
# a test for the XLA device it would send the XLA device to the CPU; left as it is it is False
# on Trainium, as the fallback needs. Both spellings of the test are left.
import torch as th


def get_device(device="auto"):
    device = th.device(device)
    if device.type == th.device("cuda").type and not th.cuda.is_available():
        return th.device("cpu")
    return device


def resolve(device):
    if device.type == "cuda" and not th.cuda.is_available():
        return th.device("cpu")
    return device
