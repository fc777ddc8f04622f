# Twin of cuda_method_device_value: `.cuda(i)` with a CUDA index (a parameter every caller in
# the file passes an int, an int) is the CUDA-index rules' business
# (TRN024 rewrites a process's own rank, TRN006 reports another index), not a `.to(i)`.
import torch
import torch.nn as nn
import torch_xla


class VAE(nn.Module):
    def __init__(self, latent_dim: int):
        super().__init__()
        self.latent_dim = latent_dim
        self.decoder = nn.Linear(latent_dim, 4)

    def sample(self, num_samples: int, which: int):
        z = torch.randn(num_samples, self.latent_dim)
        z = z.to(torch_xla.device())
        return self.decoder(z)

    def second(self, num_samples: int):
        return torch.randn(num_samples, self.latent_dim).to(torch_xla.device())


def draw(model: VAE):
    return model.sample(8, 1)
