import torch_xla
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, tie=True):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        if tie:
            self.lm_head.weight = self.wte.weight

    def forward(self, idx):
        return self.lm_head(self.wte(idx))


def main(tie):
    model = TinyLM(32, 8, tie=tie).to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    if tie:
        model.lm_head.weight = model.wte.weight
    return model
