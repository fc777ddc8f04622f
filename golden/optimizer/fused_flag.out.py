import torch
from torch import optim
from torch.optim import SGD as S


def build(model, args):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    opt2 = optim.Adam(
        model.parameters(),
        lr=1e-3,
    )
    opt3 = S(model.parameters(), lr=0.1, momentum=0.9, foreach=False)
    opt4 = torch.optim.AdamW(model.parameters(), fused=args.fused)
    return opt, opt2, opt3, opt4
