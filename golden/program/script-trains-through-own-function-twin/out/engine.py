# Twin: a module whose top level calls a function of its own that does not train (`logger =
# make_logger()`) and defines, never calls, the one that does: a library, no entry point.
import logging

import torch.nn.functional as F
import torch_xla


def make_logger():
    return logging.getLogger("engine")


logger = make_logger()


def step(model, optimizer, x, y):
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    optimizer.step()
    torch_xla.sync()


def train(model, optimizer, data):
    device = torch_xla.device()
    for x, y in data:
        step(model, optimizer, x.to(device), y.to(device))
