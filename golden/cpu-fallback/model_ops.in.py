# Data-dependent ops in a model's forward: reported where they run, with the usual rewrite.
import torch
import torch.nn as nn


class TokenClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, ids, labels):
        logits = self.head(self.embed(ids))
        per_token = nn.functional.cross_entropy(logits.transpose(1, 2), labels, reduction="none")
        valid = labels != -100
        loss = per_token[valid].mean()
        hits = torch.nonzero(logits.argmax(-1) == labels)
        present = torch.unique(labels)
        rows, cols = torch.where(valid)
        chosen = torch.masked_select(per_token, valid)
        per_token[torch.isnan(per_token)] = 0.0
        total = logits[labels > 0].sum()
        return loss, hits, present, rows, cols, chosen, total
