"""Indexes that are not a 0-dim loss's: a batch's first row, a loss per element (`reduce=False`,
`reduction="none"`), a module that returns a pair, a mean over one dimension, and a name bound
to something the tool cannot see. Nothing changes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

per_sample = nn.CrossEntropyLoss(reduce=False)
adaptive = nn.AdaptiveLogSoftmaxWithLoss(16, 100, cutoffs=[10])


def inspect(model, x, y, hidden, compute):
    first = x.data[0]
    losses = per_sample(model(x), y)
    none = F.mse_loss(model(x), y, reduction="none")
    rows = model(x).mean(1)
    pair = adaptive(hidden, y)
    unknown = compute(x)
    return first, losses.data[0], none.data[0], rows.data[0], pair.data[0], unknown.data[0]
