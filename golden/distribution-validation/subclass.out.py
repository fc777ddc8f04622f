# Class: a class of the file that derives from a torch.distributions class and keeps its
# constructor (no __init__ of its own), built every step in a function the loop calls.
import torch


class FixedCategorical(torch.distributions.Categorical):
    def log_probs(self, actions):
        return super().log_prob(actions.squeeze(-1)).unsqueeze(-1)


class FixedNormal(torch.distributions.Normal):
    def __init__(self, loc, scale):
        super().__init__(loc, scale, validate_args=False)


net = torch.nn.Linear(8, 4).cuda()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)


def act(obs):
    return FixedCategorical(logits=net(obs), validate_args=False)


def act_continuous(obs):
    return FixedNormal(net(obs), torch.ones(4, device=obs.device))


for obs, actions in loader:
    obs = obs.cuda()
    dist = act(obs)
    other = act_continuous(obs)
    loss = -dist.log_probs(actions.cuda()).mean() - other.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
