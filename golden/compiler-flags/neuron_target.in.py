# golden: target=neuron
import os

import torch

os.environ["NEURON_CC_FLAGS"] = "-O1"
model = torch.nn.Transformer()


def train(optimizer, loader, loss_fn):
    for x, y in loader:
        loss_fn(model(x), y).backward()
        optimizer.step()
