# Twin of launch-modes-set-their-own-options: the second launch line is the first with one flag
# more (`--cpu`), so the first is the documented run with that flag at its default (False), and
# the device it chooses is decided: the accelerator, as before the class was fixed (not "cannot
# tell").
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


def dataset(path):
    return TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))


def main(args=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", help="coco or csv")
    parser.add_argument("--coco_path")
    parser.add_argument("--csv_train")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--cpu", action="store_true")
    parser = parser.parse_args(args)

    if parser.dataset == "coco":
        if parser.coco_path is None:
            raise ValueError("Must provide --coco_path when training on COCO")
        data = dataset(parser.coco_path)
    elif parser.dataset == "csv":
        if parser.csv_train is None:
            raise ValueError("Must provide --csv_train when training on CSV")
        data = dataset(parser.csv_train)
    else:
        raise ValueError("Dataset type not understood (must be csv or coco)")

    loader = DataLoader(data, batch_size=8)
    device = torch.device("cpu" if parser.cpu else "xla")
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(parser.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            torch_xla.sync()


if __name__ == "__main__":
    main()
