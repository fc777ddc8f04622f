"""Twin: a package's object that is not named for an optimizer (`Tracker`, statistics of the
parameters) is given the model's parameters and stepped: no optimizer step is taken from it, and
the torch optimizer beside it is the step, cut in the same loop."""

import torch
import torch_xla
from param_stats import Tracker
from torch import nn

model = nn.Linear(8, 2).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
tracker = Tracker(model.parameters())
device = torch_xla.device()
for step in range(100):
    x = torch.randn(4, 8).to(device)
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    tracker.step()
    optimizer.zero_grad()
