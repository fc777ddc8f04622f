# Twin: imports of libraries that need CUDA that a Trainium host never runs or survives: a
# `try` whose `except ImportError:` falls back, `if torch.cuda.is_available():`, and
# `if TYPE_CHECKING:`. Nothing to report.
from typing import TYPE_CHECKING

import torch

try:
    import xformers.ops as xops
except ImportError:
    xops = None

if torch.cuda.is_available():
    import cupy

if TYPE_CHECKING:
    from apex.optimizers import FusedAdam


def attention(q, k, v):
    if xops is not None and q.is_cuda:
        return xops.memory_efficient_attention(q, k, v)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v)
