# Twin: the conditional expression tests a command-line flag off by default (`--cuda`, store_true)
# on every launch line: the move does not run, the check stays, and the verdict says the model
# stays on the CPU, at the flag.
import argparse

import torch
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
args = parser.parse_args()
model = torch.nn.Linear(8, 2).to(torch_xla.device()) if args.cuda else torch.nn.Linear(8, 2)
optimizer = torch.optim.Adam(model.parameters())

device = torch_xla.device()
for step in range(10):
    x, y = torch.randn(4, 8), torch.randn(4, 2)
    if args.cuda:
        x, y = x.to(device), y.to(device)
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
