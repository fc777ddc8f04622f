import torch


def build(model):
    # fused=False, foreach and capturable all work on XLA tensors ([measured-fused-optimizer]).
    a = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=False)
    b = torch.optim.Adam(model.parameters(), foreach=True, capturable=True)
    c = torch.optim.SGD(model.parameters(), lr=0.1, fused=None)
    return a, b, c
