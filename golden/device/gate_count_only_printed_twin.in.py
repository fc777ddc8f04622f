# Twin of gate_count_only_printed: the count sizes a list of per-GPU streams, which it does on the
# target too (an empty list, then an index error): the check stays false and is reported (TRN047).
import torch
from torch import nn

use_cuda = torch.cuda.is_available()
net = nn.Linear(4, 2)
if use_cuda:
    net.cuda()
    streams = [torch.cuda.Stream(device=i) for i in range(torch.cuda.device_count())]
    print(torch.cuda.device_count())


def train(loader, optimizer):
    for x, y in loader:
        if use_cuda:
            x, y = x.cuda(), y.cuda()
        loss = nn.functional.cross_entropy(net(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
