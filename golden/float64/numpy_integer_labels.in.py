import numpy as np
import torch


def make_labels(n, device):
    labels = np.random.randint(0, 10, size=(n,))
    idx = np.arange(10)
    ids = np.zeros(n, dtype=np.int64)
    classes = np.array([0, 1, 1, 2])
    fill = np.full(4, 7)
    y = torch.from_numpy(labels).to(device)
    i = torch.from_numpy(idx)
    k = torch.tensor(ids)
    c = torch.as_tensor(classes)
    f = torch.from_numpy(fill)
    t = torch.tensor(labels, dtype=torch.long)
    m = torch.from_numpy(np.random.rand(n)).long()  # converted to integers right away
    h = torch.from_numpy(np.arange(n, dtype="int32"))
    return y, i, k, c, f, t, m, h
