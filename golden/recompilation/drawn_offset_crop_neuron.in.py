# golden: target=neuron
# TorchNeuron runs eagerly: a crop at a new offset is the same op on the same shape, no graph
# of its own (TRN448 is an XLA finding).
import random

import torch
import torch.nn as nn

model = nn.Conv2d(3, 3, 3, padding=1).to("neuron")
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train(loader):
    for batch in loader:
        images = batch.to("neuron")
        top = random.randint(0, images.shape[-2] - 32)
        crop = images[:, :, top : top + 32, :]
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()
