# Twin of cuda-call-raises-on-launch-path: memory_summary() under a flag no launch sets
# (`--gpu-info`, off by default): off the launch path, a warning; the entry point runs.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", action="store_true")
parser.add_argument("--gpu-info", action="store_true")
args = parser.parse_args()


def evaluate(model):
    if args.gpu_info:
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
