# Class: `.cuda(d)` inside a model method where `d` is a device value: a parameter the caller
# fills with its batch's device (`sample(n, current_device)`), an input's `.device`, or a name
# bound to one. `.cuda(<xla device>)` raises; `.to(d)` takes it (and does on CUDA what `.cuda`
# did). Twin: cuda_method_device_value_twin (a rank or an int index stays TRN006/TRN024's).
import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, latent_dim: int):
        super().__init__()
        self.latent_dim = latent_dim
        self.decoder = nn.Linear(latent_dim, 4)
        self.pseudo_input = torch.zeros(2, 4)

    def sample(self, num_samples: int, current_device: int):
        z = torch.randn(num_samples, self.latent_dim)
        z = z.cuda(current_device)
        return self.decoder(z)

    def prior(self, input):
        curr_device = input.device
        self.pseudo_input = self.pseudo_input.cuda(curr_device)
        return self.pseudo_input.cuda(input.device, non_blocking=True)
