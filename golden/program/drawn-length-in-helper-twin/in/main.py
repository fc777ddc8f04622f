# The twin of drawn-length-in-helper: the host draw scales the learning rate and goes to a
# helper whose parameter decides no shape; the helper that slices gets the fixed `args.bptt`.
import argparse

import numpy as np
import torch
import torch.nn as nn

from utils import batchify, get_batch, log_batch

parser = argparse.ArgumentParser()
parser.add_argument("--bptt", type=int, default=70)
parser.add_argument("--lr", type=float, default=30)
args = parser.parse_args()

train_data = batchify(torch.randint(0, 1000, (100000,)), 20)
model = nn.Embedding(1000, 1000).cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)


def train():
    i = 0
    while i < train_data.size(0) - 1 - 1:
        scale = max(0.5, np.random.normal(1.0, 0.1))
        log_batch(scale)
        lr2 = optimizer.param_groups[0]["lr"]
        optimizer.param_groups[0]["lr"] = lr2 * scale
        data, targets = get_batch(train_data, i, args, seq_len=args.bptt)
        optimizer.zero_grad()
        loss = criterion(model(data).view(-1, 1000), targets)
        loss.backward()
        optimizer.step()
        optimizer.param_groups[0]["lr"] = lr2
        i += args.bptt


if __name__ == "__main__":
    train()
