# Must not fire (TRN424's twin): a NumPy array written through a boolean mask, in a scope that
# later rebinds the same name to a tensor (`g = torch.from_numpy(g)`) and updates it in place
# (`g /= total`). At the write, `g` is the NumPy array: it has no `masked_fill_`, and host code
# lowers nothing. The firing case is mask_fill.in.py.
import numpy as np
import torch
import torch.nn as nn


def gaussian_window(size, sigma, channels):
    y, x = np.ogrid[-size : size + 1, -size : size + 1]
    g = np.exp(-(x * x + y * y) / (2.0 * sigma * sigma))
    g[g < np.finfo(g.dtype).eps * g.max()] = 0
    total = g.sum()
    if total != 0:
        g /= total
    g = torch.from_numpy(g).float().repeat(channels, 1, 1, 1)
    return g


class SSIM(nn.Module):
    def __init__(self, size, sigma):
        super().__init__()
        self.register_buffer("window", gaussian_window(size, sigma, 3))

    def forward(self, x):
        return nn.functional.conv2d(x, self.window, groups=3)
