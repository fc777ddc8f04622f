# Class: a device flag read from a value the tool cannot see (options a library it does not read
# returns) is undecided: whichever way it goes, the verdict does not assume the accelerator.
import torch
import torch.nn as nn
import torch_xla
from myconfig import load_options

args = load_options()
device = torch.device("xla" if args.cuda else "cpu")
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
