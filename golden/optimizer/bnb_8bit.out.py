import torch


def build(model):
    a = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.9, 0.995), weight_decay=0)
    b = torch.optim.AdamW(model.parameters(), lr=1e-4)
    c = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.0)
    d = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    return a, b, c, d
