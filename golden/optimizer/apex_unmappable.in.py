import apex
import torch


def build(model, cfg):
    a = apex.optimizers.FusedAdam(model.parameters(), lr=1e-4, bias_correction=False)
    b = apex.optimizers.FusedAdam(model.parameters(), lr=1e-4, adam_w_mode=cfg.adamw)
    c = apex.optimizers.FusedLAMB(model.parameters(), lr=1e-3)
    d = apex.optimizers.FusedSGD(model.parameters(), lr=0.1, momentum=0.9, wd_after_momentum=True)
    return a, b, c, d
