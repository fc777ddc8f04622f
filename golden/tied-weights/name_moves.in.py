import torch_xla
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        # The embedding takes the head's weight (the other direction).
        self.wte.weight = self.lm_head.weight

    def forward(self, idx):
        return self.lm_head(self.wte(idx))


device = torch_xla.device()


def build():
    model = TinyLM(32, 8)
    model.to(device)
    return model


def rebuild():
    model = TinyLM(32, 8)
    model = model.to(device=device)
    return model
