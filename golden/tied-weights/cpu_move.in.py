import torch_xla
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx):
        return self.lm_head(self.wte(idx))


def export():
    # The host copy for export: a CPU to CPU move keeps the tie.
    model = TinyLM(32, 8).to("cpu")
    return model, torch_xla.device()
