# Host draws in a step that decide no shape (TRN443 twin): a random crop's offset with a fixed
# length, a length drawn once before the loop, a draw that scales the learning rate or picks a
# dropout probability.
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
