# Class: a CUDA availability check that decides the training device, whose branch also prints the
# number of CUDA devices (`print(torch.cuda.device_count())`). The count is 0 under torch-xla and
# only printed: it is no reason to keep the check false. The check is made true and the moves are
# rewritten (TRN021, TRN001).
import torch
import torch_xla
from torch import nn

use_cuda = True
net = nn.Linear(4, 2)
if use_cuda:
    net.to(torch_xla.device())
    print(torch.cuda.device_count())
    print("Using CUDA on %d devices" % torch.cuda.device_count())


def train(loader, optimizer):
    device = torch_xla.device()
    for x, y in loader:
        if use_cuda:
            x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(net(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
