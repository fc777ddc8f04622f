# Class: a float64 schedule made on the host and registered as a buffer in the module's
# `__init__` (`self.register_buffer("betas", torch.linspace(...).double())` or a factory given
# `dtype=torch.float64`), whose `cumprod` and square roots follow in double: kept (TRN209). The
# buffers move to the device with the module as float64, which Neuron stores and computes in
# f32 from the float64 values; `.float()` at creation moved a DDPM's coefficients by up to
# 1.7e-4 relative. Twin: host_schedule_registered_in_init_twin.
import torch
from torch import nn


class GaussianDiffusionTrainer(nn.Module):
    def __init__(self, model, beta_1, beta_T, T):
        super().__init__()
        self.model = model
        self.register_buffer("betas", torch.linspace(beta_1, beta_T, T).double())
        alphas = 1.0 - self.betas
        alphas_bar = torch.cumprod(alphas, dim=0)
        self.register_buffer("sqrt_alphas_bar", torch.sqrt(alphas_bar))


class Sampler(nn.Module):
    def __init__(self, T):
        super().__init__()
        self.register_buffer("steps", torch.arange(T, dtype=torch.float64))
        self.register_buffer("scale", torch.sqrt(self.steps + 1.0))
