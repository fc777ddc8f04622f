# A suppression keeps the import as it is.
from torch._six import inf  # trncodemod: ignore[TRN048]

import torch


def bound():
    return torch.tensor(inf)
