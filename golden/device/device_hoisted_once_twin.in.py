# Twin of device_hoisted_once: the training loop and the test loop are in two functions, so
# the binding before one does not run before the other: each gets its own.
import torch
import torch.nn.functional as F


def fit(model, optimizer, train):
    for x, y in train:
        x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()


def score(model, test):
    correct = 0
    for x, y in test:
        x, y = x.cuda(), y.cuda()
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
