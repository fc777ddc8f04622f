# Twin of imports-unparseable-module: the module that does not parse is in the tree but no
# entry point imports it: the training script runs, and only the file is reported.
import torch
import torch_xla
from torch import nn



def main():
    model = nn.Linear(4, 2).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    memory = None
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
