# Class: a torch.distributions object built every training step, under any import spelling
# (`import torch.distributions as D`, `torch.distributions.normal.Normal`), in a call written
# one argument per line.
import torch
import torch.distributions as D

policy = torch.nn.Linear(8, 4).cuda()
value = torch.nn.Linear(8, 2).cuda()
optimizer = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=3e-4)


def update(batches):
    for obs, actions, advantages in batches:
        obs = obs.cuda()
        dist = D.Categorical(logits=policy(obs))
        mean, log_std = value(obs).chunk(2, dim=-1)
        baseline = torch.distributions.normal.Normal(
            mean,
            log_std.exp(),
        )
        loss = -(dist.log_prob(actions.cuda()) * advantages.cuda()).mean()
        loss = loss - baseline.entropy().mean() - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
