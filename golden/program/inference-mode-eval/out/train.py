# Class: an evaluation function under `@torch.inference_mode()`, called by the training loop
# every epoch: on XLA a model called under inference mode raises (measured), so it becomes
# `@torch.no_grad()` and the entry point runs (twin: the mode read from a flag the launch line
# leaves on, reported, not rewritten: the entry point does not run).
import argparse

import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
args = parser.parse_args()
device = "xla"


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    total = 0.0
    for x, y in pl.MpDeviceLoader(loader, device):
        total += torch.nn.functional.cross_entropy(model(x), y).detach()
    total = float(total)
    model.train()
    return total / len(loader)


def main():
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(data, batch_size=8, drop_last=True)
    for epoch in range(args.epochs):
        for x, y in pl.MpDeviceLoader(loader, device):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, evaluate(model, loader))


if __name__ == "__main__":
    main()
