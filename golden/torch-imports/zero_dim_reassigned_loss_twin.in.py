"""Twin: the binding that reaches the read is not certain (one under an `if`), the last binding
keeps one value per sample, or the divisor is a name bound to a tensor: `x.data[0]` may be a
first row there, and stays."""
import torch


def td_loss(q, target, weights, reduce):
    loss = (q - target).pow(2) * weights
    if reduce:
        loss = loss.mean()
    return loss


def per_sample(q, target):
    loss = (q - target).pow(2).mean()
    loss = (q - target).pow(2)
    return loss


def scaled(quantile, scale):
    scale = torch.ones(5)
    loss = quantile.sum() / scale
    return loss


losses = []
for step in range(3):
    q, target = torch.randn(4), torch.randn(4)
    losses.append(td_loss(q, target, torch.ones(4), True).data[0])
    sample = per_sample(q, target)
    losses.append(sample.data[0])
    rows = scaled(torch.randn(4, 5), 2)
    losses.append(rows.data[0])
