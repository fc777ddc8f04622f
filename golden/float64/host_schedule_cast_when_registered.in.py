# A diffusion noise schedule is computed on the host in float64 and cast to float32 where it is
# registered as a buffer (the shape of lucidrains' denoising-diffusion-pytorch): every float64
# is kept, with a note (TRN209). Casting at creation would move the posterior coefficients.
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def linear_beta_schedule(timesteps):
    scale = 1000 / timesteps
    return torch.linspace(scale * 0.0001, scale * 0.02, timesteps, dtype=torch.float64)


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    t = torch.linspace(0, timesteps, steps, dtype=torch.float64) / timesteps
    alphas_cumprod = torch.cos((t + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


def numpy_alphas(timesteps):
    betas = np.linspace(1e-4, 0.02, timesteps)
    alphas = 1.0 - torch.from_numpy(betas)
    return torch.cumprod(alphas, dim=0).float()


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=1000, beta_schedule="cosine"):
        super().__init__()
        self.model = model
        if beta_schedule == "linear":
            schedule = linear_beta_schedule
        else:
            schedule = cosine_beta_schedule
        betas = schedule(timesteps)
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
        (timesteps,) = betas.shape
        self.num_timesteps = int(timesteps)

        # helper function to register buffer from float64 to float32
        register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))

        register_buffer("betas", betas)
        register_buffer("alphas_cumprod", alphas_cumprod)
        register_buffer("sqrt_alphas_cumprod", torch.sqrt(alphas_cumprod))
        posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
        register_buffer("posterior_variance", posterior_variance)
        register_buffer(
            "posterior_log_variance_clipped", torch.log(posterior_variance.clamp(min=1e-20))
        )
        snr = alphas_cumprod / (1 - alphas_cumprod)
        clipped = snr.clone()
        clipped.clamp_(max=5.0)
        register_buffer("loss_weight", clipped / (snr + 1))
        self.register_buffer("numpy_alphas", numpy_alphas(timesteps))
