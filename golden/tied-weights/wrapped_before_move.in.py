# golden: select=TRN250,TRN251
# The moved name's last assignment before the move wraps or moves the model itself
# (`model = torch.compile(model)`, `model = model.to(device)`): what it held before counts too.
# A wrapper is reported (its attributes are not the model's); a second move is tied again.
import torch
import torch_xla
from torch import nn


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(4, 2)
        self.lm_head = nn.Linear(2, 4, bias=False)
        self.lm_head.weight = self.wte.weight


def compiled():
    model = GPT()
    model = torch.compile(model)
    model.to(torch_xla.device())
    return model


def moved_twice():
    model = GPT()
    model = model.to(torch_xla.device())
    model.to(torch_xla.device())
    return model
