# golden: target=neuron optimizer=syncfree
import torch
from apex.optimizers import FusedAdam as FA


def build(model):
    a = FA(model.parameters(), lr=1e-4)
    b = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    return a, b
