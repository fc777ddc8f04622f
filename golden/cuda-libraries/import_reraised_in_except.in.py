# Class: a `try` around an import of a library that needs CUDA whose `except ImportError:` only
# raises again (a friendlier message, no fallback): still a blocker.
import torch

try:
    from mamba_ssm import Mamba
except ImportError as error:
    raise ImportError("pip install mamba-ssm causal-conv1d") from error


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mixer = Mamba(dim)
