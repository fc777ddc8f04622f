# Twin of inference-mode-eval: the evaluation's inference mode is read from a flag
# (`inference_mode(not args.eval_grads)`, the flag off by default), so it is on where the program
# runs and a model on XLA called under it raises. The argument is not a literal: the line is
# reported with the fix, not rewritten, and the entry point does not run.
import argparse

import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--eval-grads", action="store_true")
args = parser.parse_args()
device = "xla"


def evaluate(model, loader):
    with torch.inference_mode(not args.eval_grads):
        return _evaluate(model, loader)


def _evaluate(model, loader):
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
