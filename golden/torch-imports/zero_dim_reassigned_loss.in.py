"""Class: a loss that reaches its read through the last of several straight-line bindings in a
function (`loss = (q - target).pow(2) * w`, then `loss = loss.mean()`, then `return loss`), a
negated mean (`-(p * q.log()).sum(1).mean()`), and a sum divided by a name bound to a number
(`quantile.sum() / num_quant`): each is 0-dim, and `loss.data[0]` raises IndexError on the
target's torch → `loss.item()`. DQN notebooks of torch 0.3 read their TD loss so."""
import torch

num_quant = 51


def td_loss(q, target, weights):
    loss = (q - target).pow(2) * weights
    priorities = loss + 1e-5
    loss = loss.mean()
    loss.backward()
    return loss


def categorical_loss(projected, dist):
    loss = -(projected * dist.log()).sum(1).mean()
    return loss


def quantile_loss(quantile):
    loss = quantile.sum() / num_quant
    return loss


losses = []
for step in range(3):
    q, target = torch.randn(4, requires_grad=True), torch.randn(4)
    loss = td_loss(q, target, torch.ones(4))
    losses.append(loss.data[0])
    categorical = categorical_loss(torch.rand(4, 3), torch.rand(4, 3))
    losses.append(categorical.data[0])
    quantile = quantile_loss(torch.randn(4, 5))
    losses.append(quantile.data[0])
