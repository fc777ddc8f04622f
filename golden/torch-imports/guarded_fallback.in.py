# The file already falls back when torch._six is gone: left alone.
import torch

try:
    from torch._six import inf
except ImportError:
    from torch import inf

try:
    from torch._six import string_classes
except (ModuleNotFoundError, AttributeError):
    string_classes = (str, bytes)


def bound():
    return torch.tensor(inf), string_classes
