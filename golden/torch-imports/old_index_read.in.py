"""Class: `x.data[0]` of a tensor the tool cannot show is 0-dim, used as it is (an action handed
to an environment, a value returned): torch 0.3 gave a Python number for a one-dimensional `x`,
torch 0.4 and later a 0-dim tensor. Reported (TRN065), not rewritten: `x` may have more
than one dimension, where the index is a row."""
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


def play(env, agent, state):
    action = agent.act(state)
    return env.step(action), first(torch.randn(3))
