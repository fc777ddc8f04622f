# golden: select=TRN001,TRN250,TRN251
# Twin of conditional_tie_script (whose `model = torch.load(f)` comes after the move): here the
# name is bound to the loaded model before the move, so the move moves that, not a `TinyLM`;
# in a loop an assignment after the move may reach it again: not settled, nothing is done.
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight


def reloaded(path):
    model = TinyLM(32, 8)
    model = torch.load(path)
    model.cuda()
    return model


def looped(paths):
    model = TinyLM(32, 8)
    for path in paths:
        model.cuda()
        model = torch.load(path)
    return model
