import torch


def build(model):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
    return opt


def build_wd(model):
    return torch.optim.AdamW(model.parameters(), 1e-4, (0.9, 0.98), weight_decay=0.01)


def build_l2(model):
    return torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
