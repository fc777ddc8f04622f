# Twin of double_tensor_type's `torch.cuda.DoubleTensor(3)` (a blocker where it runs: it raises
# `Found no NVIDIA driver` on Trainium): under `if torch.cuda.is_available():`, False on
# Trainium, the call never runs there, so nothing is reported.
import torch


def build(n):
    if torch.cuda.is_available():
        return torch.cuda.DoubleTensor(n).float()
    return torch.zeros(n)
