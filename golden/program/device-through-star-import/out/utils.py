# Class: a module-level cuda-if-available device in modules whose `torch` comes from a star
# import of a given module (`from utils import *`, utils.py doing `import torch`). Every module
# of the program gets the same rewrite: left on the CPU in model.py, the priors stay there while
# the predictions are on the device, and the first step raises. Twin: the star import is of a
# module not given (what it binds is unknown), reported as before.
import torch
import torch_xla

device = torch.device("xla")


def indices(n):
    return torch.arange(n).to(device)
