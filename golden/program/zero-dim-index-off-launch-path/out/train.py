# Class: a blocker the port fixes (TRN064's `loss.data[0]` → `loss.item()`) in a function that
# only a flag off on every launch calls (`--debug`, `store_true`): no blocker, a warning that
# says the line is off the launch path.
import argparse

import torch
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--debug", action="store_true")
args = parser.parse_args()

device = "xla"
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = torch.nn.MSELoss()


def debug_loss(x, y):
    loss = criterion(model(x), y)
    return loss.item()


for step in range(10):
    x, y = torch.randn(4, 8).to(device), torch.randn(4, 2).to(device)
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    if args.debug:
        print(debug_loss(x, y))
