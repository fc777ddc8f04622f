# Class: a torch.cuda call that raises without CUDA (memory_summary(): KeyError, measured) on the
# launch path, under the flag that moves the model, which the launch line sets (README): it stops
# there after the first epoch, so the entry point does not run, with the call as the cause
# (twin: the same call under a flag no launch sets, off the launch path: a warning).
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", action="store_true")
args = parser.parse_args()


def evaluate(model):
    if args.gpu:
        print(torch.cuda.memory_summary(), end="")


def main():
    model = torch.nn.Linear(8, 2)
    if args.gpu:
        model = model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    for epoch in range(2):
        for x, y in DataLoader(data, batch_size=8, drop_last=True):
            if args.gpu:
                x, y = x.cuda(), y.cuda()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        evaluate(model)


if __name__ == "__main__":
    main()
