import torch
import torch.nn as nn


def make(x, data):
    buf = torch.zeros(8, 8, dtype=torch.float32)
    t = torch.tensor(data, dtype=torch.float32, requires_grad=True)
    layer = nn.Linear(4, 4, dtype=torch.float32)
    extra = x.new_zeros(3, dtype=torch.float32)
    total = x.sum(dtype=torch.float32)
    probs = torch.softmax(x, dim=-1, dtype=torch.float32)
    return buf, t, layer, extra, total, probs
