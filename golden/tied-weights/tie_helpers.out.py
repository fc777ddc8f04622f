# golden: select=TRN001,TRN250,TRN251
# Class: a tie made by what `__init__` calls: a method (`self.tie_weights()`, under a test of a
# parameter), a module-level function given the instance (`tie(self)`), the `__init__` of a
# module class built into an attribute (`self.decoder = Decoder(...)`), a base class's
# `__init__` (`super().__init__(...)`, or the base's where the class has none). Each is made
# again on the moved model.
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


class WithMethod(nn.Module):
    def __init__(self, vocab, dim, tie_embeddings=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        if tie_embeddings:
            self.tie_weights()

    def tie_weights(self):
        self.head.weight = self.embed.weight


class WithFunction(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        tie(self)


class Seq2Seq(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.decoder = Decoder(vocab, dim)


class Child(Decoder):
    def __init__(self, vocab, dim):
        super().__init__(vocab, dim)
        self.norm = nn.LayerNorm(dim)


class Plain(Decoder):
    pass


def main(tie_embeddings):
    a = WithMethod(32, 8, tie_embeddings=tie_embeddings)
    a.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    if tie_embeddings:
        a.head.weight = a.embed.weight
    b = WithFunction(32, 8)
    b.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    b.head.weight = b.embed.weight
    c = Seq2Seq(32, 8)
    c.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    c.decoder.out.weight = c.decoder.embed.weight
    d = Child(32, 8)
    d.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    d.out.weight = d.embed.weight
    e = Plain(32, 8)
    e.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    e.out.weight = e.embed.weight
    return a, b, c, d, e
