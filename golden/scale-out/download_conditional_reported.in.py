# golden: scale-out=true select=ALL
import argparse

import torch
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.transforms import ToTensor

from mydata import Shards


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fashion", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    # Under an `if`: reported, not rewritten.
    if args.fashion:
        train_set = datasets.FashionMNIST("./data", train=True, download=True, transform=ToTensor())
    else:
        train_set = datasets.MNIST("./data", train=True, transform=ToTensor())
    # Not torchvision's: left alone. No download: left alone.
    shards = Shards("./shards", download=True)
    test_set = datasets.MNIST("./data", train=False, download=False, transform=ToTensor())
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, drop_last=True)
    device = "xla"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        for x, y in train_loader:
            optimizer.zero_grad()
            x, y = x.view(x.size(0), -1).to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
