# Twin of device_hoisted_once: the training loop and the test loop are in two functions, so
# the binding before one does not run before the other: each gets its own.
import torch
import torch.nn.functional as F
import torch_xla


def fit(model, optimizer, train):
    device = torch_xla.device()
    for x, y in train:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()


def score(model, test):
    correct = 0
    device = torch_xla.device()
    for x, y in test:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
