# golden: target=neuron optimizer=syncfree
import torch


def build(model):
    a = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
    b = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    return a, b
