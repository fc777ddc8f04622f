import numpy as np
import torch

features = np.random.randn(128, 16)
inputs = torch.from_numpy(features).float()


def load(device):
    weights: np.ndarray = np.linspace(0.0, 1.0, 16)
    grid = np.random.random((8, 8))
    row = grid[0]
    w = torch.as_tensor(weights, dtype=torch.float32)
    g = torch.tensor(
        grid,
        dtype=torch.float32,
    )
    r = torch.from_numpy(row).float().to(device)
    return w, g, r


def reassigned():
    arr = np.random.rand(4)
    arr = normalize(arr)
    return torch.from_numpy(arr)


def outer_scope():
    return torch.from_numpy(features)
