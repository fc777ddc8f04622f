# golden: optimizer=syncfree
import torch as th
from torch.optim import SGD


def build(model):
    opt = th.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    sgd = SGD(model.parameters(), lr=0.1)
    sched = th.optim.lr_scheduler.StepLR(opt, 10)
    return opt, sgd, sched
