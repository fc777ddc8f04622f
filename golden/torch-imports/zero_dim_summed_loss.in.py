# Class: torch 0.3's `.data[0]` of a loss that starts at 0 and has losses added to it (an RNN's
# `loss += criterion(output, target[c])` over its time steps), or of a loss's call
# (`F.nll_loss(...).data[0]`): a 0-dim tensor on torch 0.4 and later, read with `.item()`.
import torch.nn as nn
import torch.nn.functional as F

criterion = nn.CrossEntropyLoss()


def train(model, inputs, targets):
    loss = 0
    for c in range(len(inputs)):
        loss += criterion(model(inputs[c]), targets[c])
    loss.backward()
    return loss.data[0] / len(inputs)


def test(model, data, target):
    return F.nll_loss(model(data), target, size_average=False).data[0]
