# Class: an entry point that imports a module of the program which does not parse on any Python
# the target supports (`async` used as a name, valid before Python 3.7): Python raises
# SyntaxError at the import, so it does not run, whatever the rest of the port does; the verdict
# names the import and the module's error instead of "no step".
import torch
import torch_xla
from torch import nn

from replay import ReplayWrapper


def main():
    model = nn.Linear(4, 2).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    memory = ReplayWrapper(capacity=100)
    device = torch_xla.device()
    for _ in range(10):
        loss = model(torch.randn(8, 4).to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    return memory


if __name__ == "__main__":
    main()
