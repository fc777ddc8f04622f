"""Class: `x.data[0]` of a tensor the tool cannot show is 0-dim, used as it is (an action handed
to an environment, a value returned): torch 0.3 gave a Python number for a one-dimensional `x`,
torch 0.4 and later a 0-dim tensor. Reported (TRN065), not rewritten: `x` may have more
than one dimension, where the index is a row. An accumulation (`total += loss.data[0]`, a loss
from a helper that mixes two criteria by a weight the tool cannot follow) is such a use: on a 0-dim
loss it raises IndexError."""
import torch


class Agent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(4, 2)

    def act(self, state):
        q_value = self.q(torch.tensor(state).unsqueeze(0))
        action = q_value.max(1)[1].data[0]
        return action


def first(scores):
    return scores.data[0]


def mixed(criterion, pred, y_a, y_b, lam):
    return lam * criterion(pred, y_a) + (1 - lam) * criterion(pred, y_b)


def epoch(criterion, pairs, lam):
    total = 0
    for pred, y_a, y_b in pairs:
        loss = mixed(criterion, pred, y_a, y_b, lam)
        total += loss.data[0]
    return total


def play(env, agent, state):
    action = agent.act(state)
    return env.step(action), first(torch.randn(3))
