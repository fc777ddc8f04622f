# Twin: an import of a library that needs CUDA for annotations only (`if TYPE_CHECKING:`),
# never run. Nothing to report.
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from apex.optimizers import FusedAdam


def make(model: torch.nn.Module) -> "FusedAdam":
    return torch.optim.AdamW(model.parameters())
