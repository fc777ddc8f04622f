# minGPT's `generate` and an evaluation loop that collects its outputs: the tensor is one piece
# longer every iteration, and every iteration ends in a graph cut (TRN102 inserts it): a graph
# compiled per iteration. TRN435 reports each.
import torch
import torch.nn as nn
from torch.nn import functional as F


class GPT(nn.Module):
    def __init__(self, vocab_size, block_size):
        super().__init__()
        self.block_size = block_size
        self.head = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx):
        return self.head(idx)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.block_size else idx[:, -self.block_size :]
            logits = self(idx_cond)
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            idx_next = torch.argmax(probs, dim=-1, keepdim=True)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


def evaluate(model, loader, device):
    preds = torch.zeros(0, device=device)
    for x, y in loader:
        x = x.to(device)
        out = model(x).argmax(-1)
        preds = torch.cat([preds, out])
    return preds
