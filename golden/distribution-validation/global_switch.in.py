# Must not fire: the module turns argument validation off for the whole process.
import torch
import torch.distributions as D
from torch.distributions import Normal

D.Distribution.set_default_validate_args(False)
model = torch.nn.Linear(8, 8).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for x in loader:
    x = x.cuda()
    mu, log_std = model(x).chunk(2, dim=1)
    loss = -Normal(mu, log_std.exp()).log_prob(x[:, :4]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
