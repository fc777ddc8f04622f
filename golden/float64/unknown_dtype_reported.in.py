import numpy as np
import torch


class Table:
    def __init__(self, rows, dtype=torch.float64):
        self.rows = rows
        self.dtype = torch.float64

    def tensors(self, path, arr):
        a = torch.from_numpy(load_array(path))
        b = torch.tensor(np.load(path))
        c = torch.from_numpy(arr)
        d = make_batch(self.rows, dtype=torch.float64)
        e = torch.zeros(3, dtype=np.float64)
        f = torch.tensor(self.rows)  # not visibly NumPy: no note
        return a, b, c, d, e, f


DT = torch.float64


def mixed(n):
    if n.dtype == DT:
        return n
    return torch.zeros(n, dtype=DT)
