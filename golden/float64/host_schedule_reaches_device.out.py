# float64 made on the host that is NOT proven cast before the device is still rewritten: a
# buffer registered as it is, a move to the device, an attribute, a schedule function used
# out of sight, and a NumPy array whose tensor is registered as float64.
import numpy as np
import torch
from torch import nn


def linear_beta_schedule(timesteps):
    return torch.linspace(1e-4, 0.02, timesteps, dtype=torch.float32)


def quadratic_beta_schedule(timesteps):
    return torch.linspace(1e-2, 0.14, timesteps, dtype=torch.float32) ** 2


SCHEDULES = {"quadratic": quadratic_beta_schedule}


class Diffusion(nn.Module):
    def __init__(self, timesteps, device):
        super().__init__()
        betas = linear_beta_schedule(timesteps)
        self.register_buffer("betas", betas)
        alphas = torch.linspace(0, 1, timesteps, dtype=torch.float32)
        self.alphas = alphas.to(device)
        self.sigmas = torch.zeros(timesteps, dtype=torch.float32)
        register_buffer = lambda name, val: self.register_buffer(name, val)
        register_buffer("gammas", torch.ones(timesteps, dtype=torch.float32))
        self.register_buffer("noise", torch.from_numpy(np.random.randn(timesteps)).float())
