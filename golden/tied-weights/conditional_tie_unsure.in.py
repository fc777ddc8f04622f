# golden: select=TRN001,TRN250,TRN251
# Twin of conditional_tie_script: the test cannot be asked again after the move with certainty
# (the argument is a call, its name is bound again after the model is built, the tie sits under
# a test of an attribute of the instance, alone or around a test of a parameter): reported, not
# redone.
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, tie=True):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        if tie:
            self.lm_head.weight = self.wte.weight


class SelfTest(nn.Module):
    def __init__(self, vocab, dim, tie=True):
        super().__init__()
        self.tie = tie
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        if self.tie:
            self.lm_head.weight = self.wte.weight


class Nested(nn.Module):
    def __init__(self, vocab, dim, tie=True):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        if self.training:
            if tie:
                self.lm_head.weight = self.wte.weight
            else:
                self.lm_head.weight.data.zero_()


def flag():
    return True


def by_call():
    model = TinyLM(32, 8, tie=flag())
    model.cuda()
    return model


def rebound(tie):
    model = TinyLM(32, 8, tie=tie)
    tie = not tie
    model.cuda()
    return model, tie


def on_self():
    model = SelfTest(32, 8)
    model.cuda()
    nested = Nested(32, 8)
    nested.cuda()
    return model, nested
