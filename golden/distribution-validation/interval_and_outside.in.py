# Must not fire: a distribution built only under a logging interval (every N steps), one built
# once before the loop, and one in a function the step never calls.
import torch
from torch.distributions import Normal

model = torch.nn.Linear(8, 8).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
prior = Normal(torch.zeros(8).cuda(), torch.ones(8).cuda())


def report(mu):
    return Normal(mu, torch.ones_like(mu)).entropy().mean()


for step, x in enumerate(loader):
    x = x.cuda()
    mu = model(x)
    loss = (mu - x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        spread = Normal(mu.detach(), torch.ones_like(mu)).stddev.mean()
        print(step, spread.item())

print(report(model(torch.randn(4, 8).cuda())))
