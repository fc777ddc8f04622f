import json
import sys

import torch

with open(sys.argv[1]) as f:
    cfg = json.load(f)

# The device comes from a file the tool cannot read: a blocker, not a guess.
device = torch.device(cfg["device"])
model = torch.nn.Linear(10, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(20):
    loss = model(torch.randn(16, 10, device=device)).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
