# An input the loop rebinds before the call (`input = input.float()`) is not a batch element as
# the loader hands it: where it lives is not followed, and the finding says what to move.
import torch.nn as nn


def evaluate(net, loader):
    model = nn.DataParallel(net).cuda()
    for input, target in loader:
        target = target.cuda()
        input = input.float()
        print((model(input).argmax(1) == target).sum())
