# Class: a torch.distributions object built in a model's forward, which a training step in
# another module runs every step (batch I's VQ-VAE repository: modules.py's VAE.forward).
import torch
import torch.nn as nn
from torch.distributions.normal import Normal
from torch.distributions import kl_divergence


class VAE(nn.Module):
    def __init__(self, input_dim, z_dim):
        super().__init__()
        self.encoder = nn.Linear(input_dim, z_dim * 2)
        self.decoder = nn.Linear(z_dim, input_dim)

    def forward(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=1)
        q_z_x = Normal(mu, logvar.mul(0.5).exp())
        p_z = Normal(torch.zeros_like(mu), torch.ones_like(logvar))
        kl_div = kl_divergence(q_z_x, p_z).sum(1).mean()
        return self.decoder(q_z_x.rsample()), kl_div
