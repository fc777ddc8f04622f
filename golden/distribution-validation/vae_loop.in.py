# Class: a torch.distributions object built every training step with argument validation on
# (the default): in the loop body, and in a function of the file the loop calls by name.
import torch
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

model = torch.nn.Linear(16, 32).cuda()
decoder = torch.nn.Linear(16, 16).cuda()
opt = torch.optim.Adam([*model.parameters(), *decoder.parameters()], lr=1e-3)


def kl_term(mu, logvar):
    q_z_x = Normal(mu, logvar.mul(0.5).exp())
    p_z = Normal(torch.zeros_like(mu), torch.ones_like(logvar))
    return kl_divergence(q_z_x, p_z).sum(1).mean(), q_z_x


def train(loader):
    for x in loader:
        x = x.cuda()
        mu, logvar = model(x).chunk(2, dim=1)
        kl, q_z_x = kl_term(mu, logvar)
        x_tilde = decoder(q_z_x.rsample())
        nll = -Normal(x_tilde, torch.ones_like(x_tilde)).log_prob(x).mean()
        loss = nll + kl
        opt.zero_grad()
        loss.backward()
        opt.step()
