# Host draws in a step that decide no shape (TRN443 twin): a random crop's offset with a fixed
# length, a length drawn once before the loop, a draw that scales the learning rate or picks a
# dropout probability; a drawn length rounded up to a bucket, or chosen among a few (the fix).
import random

import numpy as np
import torch
import torch.nn as nn

device = torch.device("xla")
model = nn.Embedding(100000, 16).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_crop(loader, window):
    for batch in loader:
        start = random.randint(0, batch.shape[1] - window)
        crop = batch[:, start : start + window].to(device)  # the length stays `window`
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_once(loader, args):
    seq_len = max(5, int(np.random.normal(args.bptt, 5)))  # once: one shape
    for batch in loader:
        batch = batch[:, :seq_len].to(device)
        optimizer.zero_grad()
        model(batch).sum().backward()
        optimizer.step()


def train_scaled(loader, args):
    for batch in loader:
        scale = np.random.uniform(0.5, 1.5)
        optimizer.param_groups[0]["lr"] = args.lr * scale
        p = random.random() * 0.2
        optimizer.zero_grad()
        out = torch.nn.functional.dropout(model(batch.to(device)), p)
        out.sum().backward()
        optimizer.step()


def train_bucketed(train_data, args, get_batch):
    i = 0
    while i < train_data.size(0) - 1 - 1:
        bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.0
        seq_len = max(5, int(np.random.normal(bptt, 5)))
        seq_len = min(-(-seq_len // 8) * 8, args.bptt + 16)  # one of a few fixed lengths
        data = train_data[i : i + seq_len].to(device)
        optimizer.zero_grad()
        model(data).sum().backward()
        optimizer.step()
        i += seq_len


def train_choice(loader):
    for batch in loader:
        n = random.choice((32, 48, 64))  # a few fixed lengths
        optimizer.zero_grad()
        model(batch[:, :n].to(device)).sum().backward()
        optimizer.step()
