# Class: inference mode imported by name, from torch and from torch.autograd.grad_mode: the
# calls become `no_grad()`, imported from torch (one class under every name), and the unused
# imports go.
import torch
from torch import inference_mode
from torch.autograd.grad_mode import inference_mode as im


@inference_mode()
def evaluate(model, x):
    return model(x).sum().item()


def generate(model, x):
    with im():
        return model(x).argmax(-1)


def log(model):
    with torch.autograd.inference_mode():
        return sum(p.sum() for p in model.parameters()).item()
