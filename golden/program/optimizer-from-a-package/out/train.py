"""Class: an optimizer from a package, not torch.optim (`Lion(model.parameters(), ...)`), stepped
after gradients accumulated over micro-batches: its `step()` is the optimizer step, so the cut
after it, outside the micro-batch loop, cuts the training step."""

import torch
import torch_xla
from lion_pytorch import Lion
from torch import nn

ACCUMULATE = 4

model = nn.Linear(8, 2).to(torch_xla.device())
optimizer = Lion(model.parameters(), lr=1e-4)
device = torch_xla.device()
for step in range(100):
    for _ in range(ACCUMULATE):
        x = torch.randn(4, 8).to(device)
        loss = model(x).pow(2).mean() / ACCUMULATE
        loss.backward()
    optimizer.step()
    torch_xla.sync()
    optimizer.zero_grad()
