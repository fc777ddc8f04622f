# Twin of device-cause-before-wrapper: the device is one the port makes the XLA device
# (`torch.device("cuda")`), so the first thing that stops the run is the DDP wrapper (its
# `device_ids` kept) in the branch the tool cannot decide: the cause named is the wrapper.
import json
import sys

import torch
import torch_xla
from torch.nn.parallel import DistributedDataParallel

from data import make_loader


def train(rank, config):
    device = torch_xla.device()
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
        torch_xla.sync()


if __name__ == "__main__":
    with open(sys.argv[1]) as handle:
        train(0, json.load(handle))
