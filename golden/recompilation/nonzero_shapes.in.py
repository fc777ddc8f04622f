# Sizes of data-dependent results, used downstream: a graph per count.
import torch
from torch import nn


class Pooler(nn.Module):
    def forward(self, x, mask, labels):
        idx = torch.nonzero(mask).squeeze(1)
        buffer = torch.zeros(idx.shape[0], x.size(-1), device=x.device)
        picked = x[labels > 0]
        count = picked.size(0)
        classes = len(torch.unique(labels))
        rows = torch.where(mask)[0]
        total = rows.numel()
        fixed = x.shape[0]
        masked = torch.where(mask.unsqueeze(-1), x, 0)
        return buffer, count, classes, total, fixed, masked.shape
