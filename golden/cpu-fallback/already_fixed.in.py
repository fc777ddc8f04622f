# The rewrites the messages suggest: nothing is left to report.
import torch
from torch import nn


class Head(nn.Module):
    def forward(self, logits, labels, scores, tokens):
        mask = labels != -100
        per_token = nn.functional.cross_entropy(logits, labels.clamp(min=0), reduction="none")
        loss = (per_token * mask).sum() / mask.sum()
        clean = torch.where(torch.isnan(logits), 0.0, logits)
        filled = logits.masked_fill(~mask.unsqueeze(-1), 0.0)
        top = scores.float().topk(4).indices
        picked = logits[top]
        first = logits[:, 0]
        repeated = tokens.repeat_interleave(2, dim=0)
        count = mask.sum()
        return loss, clean, filled, picked, first, repeated, count
