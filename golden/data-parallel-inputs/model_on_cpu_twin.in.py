# Must not fire: a DataParallel model that is never moved to a device stays on the CPU with its
# inputs (nothing was scattered on CUDA either: DataParallel needs its module on device_ids[0]).
import torch.nn as nn


def evaluate(net, loader):
    model = nn.DataParallel(net)
    for input, target in loader:
        print(model(input).shape, target.shape)
