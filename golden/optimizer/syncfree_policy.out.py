# golden: optimizer=syncfree
import torch as th
import torch_xla.amp.syncfree
from torch.optim import SGD


def build(model):
    opt = torch_xla.amp.syncfree.AdamW(model.parameters(), lr=1e-3)
    sgd = torch_xla.amp.syncfree.SGD(model.parameters(), lr=0.1)
    sched = th.optim.lr_scheduler.StepLR(opt, 10)
    return opt, sgd, sched
