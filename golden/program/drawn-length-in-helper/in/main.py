# awd-lstm-lm: a sequence length drawn on the host every step and passed to the repository's
# own helper, which slices the batch to it in another module (TRN443 across modules).
import argparse

import numpy as np
import torch
import torch.nn as nn

from utils import batchify, get_batch

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
        bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.0
        seq_len = max(5, int(np.random.normal(bptt, 5)))
        lr2 = optimizer.param_groups[0]["lr"]
        optimizer.param_groups[0]["lr"] = lr2 * seq_len / args.bptt
        data, targets = get_batch(train_data, i, args, seq_len=seq_len)
        optimizer.zero_grad()
        loss = criterion(model(data).view(-1, 1000), targets)
        loss.backward()
        optimizer.step()
        optimizer.param_groups[0]["lr"] = lr2
        i += seq_len


if __name__ == "__main__":
    train()
