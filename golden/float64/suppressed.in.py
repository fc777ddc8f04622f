import numpy as np
import torch


def reference(x):
    exact = x.double()  # noqa: TRN202
    ref = torch.zeros(3, dtype=torch.float64)  # trncodemod: ignore[TRN201]
    arr = torch.from_numpy(np.random.rand(3))  # trncodemod: ignore
    y = x.double()
    return exact, ref, arr, y
