import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GPT(nn.Module):
    def forward(self, idx):
        return self.head(idx)

    @torch.no_grad()
    def generate(self, idx, steps, top_k=None):
        for _ in range(steps):
            logits = self(idx)[:, -1, :]
            if top_k is not None:
                v, _ = torch.topk(logits, top_k)
                logits[logits < v[:, [-1]]] = -float("Inf")
            logits[logits != logits] = 0.0
            self.bias[self.bias > 1e4] = math.inf
            logits[logits == 0] = -1
            probs = F.softmax(logits, dim=-1)
            idx = torch.cat((idx, probs.argmax(-1, keepdim=True)), dim=1)
        return idx
