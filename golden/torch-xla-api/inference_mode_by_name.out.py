# Class: inference mode imported by name, from torch and from torch.autograd.grad_mode: the
# calls become `no_grad()`, imported from torch (one class under every name), and the unused
# imports go.
import torch
from torch import no_grad


@no_grad()
def evaluate(model, x):
    return model(x).sum().item()


def generate(model, x):
    with no_grad():
        return model(x).argmax(-1)


def log(model):
    with torch.autograd.no_grad():
        return sum(p.sum() for p in model.parameters()).item()
