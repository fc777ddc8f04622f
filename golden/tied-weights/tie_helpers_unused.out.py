# golden: select=TRN001,TRN250,TRN251
# Twin of tie_helpers: the tying method and function exist but `__init__` never calls them
# (only `forward` does, or nothing), the tying class is built in a local, not an attribute, and
# the class's first base is not the tying one (`super().__init__` goes to the mixin).
import torch
import torch_xla
from torch import nn


def tie(module):
    module.head.weight = module.embed.weight


class Decoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab, bias=False)
        self.out.weight = self.embed.weight


class Untied(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        decoder = Decoder(vocab, dim)
        self.size = decoder.out.weight.shape[0]

    def tie_weights(self):
        self.head.weight = self.embed.weight

    def forward(self, x):
        tie(self)
        return self.head(self.embed(x))


class Mixin:
    def __init__(self, *args):
        pass


class Mixed(Mixin, Decoder):
    def __init__(self, vocab, dim):
        super().__init__(vocab, dim)


def main():
    model = Untied(32, 8)
    model.to(torch_xla.device())
    mixed = Mixed(32, 8)
    mixed.to(torch_xla.device())
    return model, mixed
