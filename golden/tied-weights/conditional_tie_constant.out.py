# golden: select=TRN001,TRN250,TRN251
# Twin of conditional_tie_script: the arguments decide the test here. Never true (`tie=False`,
# or the default False): no re-tie and no finding. Always true (`tie=True`): tied again with no
# test.
import torch
import torch_xla
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, tie=False):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        if tie:
            self.lm_head.weight = self.wte.weight


def untied():
    model = TinyLM(32, 8, tie=False)
    model.to(torch_xla.device())
    return model


def by_default():
    model = TinyLM(32, 8)
    model.to(torch_xla.device())
    return model


def always():
    model = TinyLM(32, 8, True)
    model.to(torch_xla.device())
    # moving to the XLA device unties shared weights: tie them again
    model.lm_head.weight = model.wte.weight
    return model
