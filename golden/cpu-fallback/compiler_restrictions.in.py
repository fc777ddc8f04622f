# neuronx-cc restrictions: complex dtypes (EVRF004), topk on integers (EVRF013), integer matmul
# (EVRF035). Reported only where the dtype is visible.
import torch
from torch import nn


class Rotary(nn.Module):
    def forward(self, x, cos, sin, counts, ids, scores):
        pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        freqs = torch.ones(4, dtype=torch.complex64)
        best = counts.long().topk(5)
        ranks = torch.topk(torch.randint(0, 10, (8,)), 3)
        order = scores.argsort(-1)
        top_order = order.topk(2)
        product = ids.int() @ counts.int()
        table = torch.matmul(ids.to(torch.int64), counts)
        fine = scores.topk(5)
        also_fine = x @ cos
        unknown = ids.topk(2)
        return pairs, freqs, best, ranks, top_order, product, table, fine, also_fine, unknown
