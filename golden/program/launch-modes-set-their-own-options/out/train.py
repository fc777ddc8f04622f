# Class: launch lines that choose between modes of one script (`--dataset coco` beside
# `--dataset csv`), each line setting the options of its own mode (`--coco_path` on one,
# `--csv_train` on the other), and a script that raises where its mode's option is missing.
# Each option is set by one line and left out by the other; the line that leaves it out runs
# another mode, not the script with the option's default, so the option is undecided and no
# path is taken for a raise. Found at first sight in an object-detection repository (RetinaNet's
# README trains on COCO or on CSV annotations), where each option was read at its default, every
# path raised, and the trainer was called "no training step". Twin:
# launch-modes-set-their-own-options-twin, whose second line only adds a flag to the first.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset


def dataset(path):
    return TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))


def main(args=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", help="coco or csv")
    parser.add_argument("--coco_path")
    parser.add_argument("--csv_train")
    parser.add_argument("--epochs", type=int, default=2)
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
    model = nn.Linear(4, 2)
    model = model.to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for epoch in range(parser.epochs):
        for x, y in pl.MpDeviceLoader(loader, device):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
