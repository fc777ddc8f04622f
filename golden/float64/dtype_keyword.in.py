import torch
import torch.nn as nn


def make(x, data):
    buf = torch.zeros(8, 8, dtype=torch.float64)
    t = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    layer = nn.Linear(4, 4, dtype=torch.float64)
    extra = x.new_zeros(3, dtype=torch.float64)
    total = x.sum(dtype=torch.float64)
    probs = torch.softmax(x, dim=-1, dtype=torch.float64)
    return buf, t, layer, extra, total, probs
