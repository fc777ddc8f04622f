import numpy as np
import torch


def batches(device):
    a = torch.from_numpy(np.random.rand(64, 10)).float()
    b = torch.tensor(np.random.randn(64, 10), dtype=torch.float32)
    c = torch.as_tensor(np.linspace(0.0, 1.0, 5), dtype=torch.float32)
    d = torch.from_numpy(np.zeros((4, 4))).float().to(device)
    e = torch.tensor(np.full(3, 0.5), device=device, dtype=torch.float32)
    f = torch.from_numpy(np.array([[1.0, 2.0], [3, 4]])).float()
    g = torch.from_numpy(np.arange(0, 1, 0.1)).float()
    h = torch.from_numpy(np.ones(3, dtype="float64")).float()
    i = torch.from_numpy(np.empty(3, float)).float()
    j = torch.from_numpy(np.random.uniform(-1, 1, size=(3,)).astype(np.float64)).float()
    k = torch.from_numpy(np.random.normal(size=(2, 3)).reshape(6)).float()
    # already converted: left alone
    m = torch.from_numpy(np.random.rand(3)).float()
    n = torch.from_numpy(np.random.rand(3)).to(torch.float16)
    o = torch.tensor(np.random.rand(3), dtype=torch.float32)
    p = torch.from_numpy(np.random.rand(3).astype(np.float32))
    return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p
