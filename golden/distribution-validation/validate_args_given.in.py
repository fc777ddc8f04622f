# Must not fire: validate_args given by keyword (either value) or by position, or possibly
# carried by **kwargs / *args.
import torch
from torch.distributions import Categorical, Normal

model = torch.nn.Linear(8, 8).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
options = {"validate_args": False}


def train(loader, args):
    for x in loader:
        x = x.cuda()
        mu, log_std = model(x).chunk(2, dim=1)
        a = Normal(mu, log_std.exp(), validate_args=False)
        b = Normal(mu, log_std.exp(), validate_args=True)
        c = Normal(mu, log_std.exp(), False)
        d = Categorical(None, model(x), False)
        e = Normal(mu, log_std.exp(), **options)
        f = Normal(*args)
        loss = -(a.log_prob(mu) + b.log_prob(mu) + c.log_prob(mu) + e.log_prob(mu)).mean()
        loss = loss - d.entropy().mean() - f.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
