# Class: the verdict's cause is the first thing on the launch path that stops the run. The device
# is built from the rank by `format` (`'cuda:{:d}'.format(rank)`, a CUDA device whatever the
# rank) above a DDP wrapper in a branch the tool cannot decide (a count from a JSON config): the
# cause named is the device, not the wrapper.
import json
import sys

import torch
from torch.nn.parallel import DistributedDataParallel

from data import make_loader


def train(rank, config):
    device = torch.device("cuda:{:d}".format(rank))
    model = torch.nn.Linear(8, 2).to(device)
    if config["num_gpus"] > 1:
        model = DistributedDataParallel(model, device_ids=[rank]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in make_loader():
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        train(0, json.load(handle))
