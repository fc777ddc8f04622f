# Must not add `capturable=True` (it raises for CPU parameters and with `foreach=True` on XLA):
# parameters not visibly moved before the optimizer is built, moved only under an undecided
# condition or after it, a module rebound in between, `capturable=False`, `foreach=True` or `**`
# keywords are reported; optimizers that read nothing on the host (Adam, SGD) are left alone.
import torch


def build(model, args, options):
    first = torch.optim.ASGD(model.parameters(), lr=0.1)
    if args.accelerate:
        model.cuda()
    second = torch.optim.ASGD(model.parameters(), lr=0.1)
    net = torch.nn.Linear(2, 2).cuda()
    net = torch.load("net.pt")
    third = torch.optim.Rprop(net.parameters())
    layer = torch.nn.Linear(2, 2).cuda()
    fourth = torch.optim.ASGD(layer.parameters(), capturable=False)
    fifth = torch.optim.ASGD(layer.parameters(), foreach=True)
    sixth = torch.optim.Rprop(layer.parameters(), **options)
    adam = torch.optim.Adam(layer.parameters(), lr=1e-3)
    sgd = torch.optim.SGD(layer.parameters(), lr=0.1)
    return first, second, third, fourth, fifth, sixth, adam, sgd
