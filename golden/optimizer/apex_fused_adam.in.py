import torch
from apex.optimizers import FusedAdam


def build(model):
    opt = FusedAdam(model.parameters(), lr=1e-4)
    return opt


def build_wd(model):
    return FusedAdam(model.parameters(), 1e-4, True, (0.9, 0.98), weight_decay=0.01)


def build_l2(model):
    return FusedAdam(model.parameters(), lr=1e-3, adam_w_mode=False, weight_decay=1e-4)
