# Twin: modules whose names only begin like a library that needs CUDA, and the project's own
# modules of the same name (relative imports). Nothing to report.
import torch

import apex_utils
from cupyx_compat import asarray

from .flash_attn import attention
from . import apex


def forward(q, k, v):
    return attention(asarray(q), k, v) + apex_utils.scale(torch.ones(1))
