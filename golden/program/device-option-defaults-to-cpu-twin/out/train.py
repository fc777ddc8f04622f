# The twin: every launch line sets the device option to the accelerator.
import argparse

import torch
import torch_xla
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu")
parser.add_argument("--epochs", type=int, default=1)

if __name__ == "__main__":
    args = parser.parse_args()
    device = torch.device(args.device)
    model = torch.nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in DataLoader(torch.randn(32, 4), batch_size=4):
        optimizer.zero_grad()
        model(x.to(device)).sum().backward()
        optimizer.step()
        torch_xla.sync()
