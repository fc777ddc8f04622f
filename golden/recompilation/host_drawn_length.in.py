# A sequence length drawn on the host every step decides a shape (TRN443): awd-lstm-lm's draw
# passed to its own helper's `seq_len` parameter, a draw right in a slice bound, and a
# `torch.randint(...).item()` that sizes a tensor.
import random

import numpy as np
import torch
import torch.nn as nn

device = torch.device("xla")
train_data = torch.arange(100000).view(-1, 20).to(device)
model = nn.Embedding(100000, 16).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def get_batch(source, i, args, seq_len=None):
    seq_len = min(seq_len if seq_len else args.bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


def train(args):
    i = 0
    while i < train_data.size(0) - 1 - 1:
        bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.0
        seq_len = max(5, int(np.random.normal(bptt, 5)))
        data, targets = get_batch(train_data, i, args, seq_len=seq_len)
        optimizer.zero_grad()
        model(data).sum().backward()
        optimizer.step()
        i += seq_len


def train_cropped(loader):
    for batch in loader:
        batch = batch.to(device)
        optimizer.zero_grad()
        model(batch[:, : random.randint(16, 64)]).sum().backward()
        optimizer.step()


def train_noise(loader):
    for batch in loader:
        batch = batch.to(device)
        extra = torch.randint(1, 8, (1,)).item()
        noise = torch.zeros(batch.shape[0], extra, dtype=torch.long, device=device)
        optimizer.zero_grad()
        model(torch.cat([batch, noise], dim=1)).sum().backward()
        optimizer.step()
