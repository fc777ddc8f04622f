"""A library module that keeps torch_xla optional, as diffusers' pipelines do: it imports
torch_xla only when it is available and cuts the graph under the same flag. Rewrites that would
import torch_xla at the top of the module (a step marker, the target device, the XLA seed) would
make it required on every machine: each is reported, not applied."""
import torch

from .utils import is_torch_xla_available

if is_torch_xla_available():
    import torch_xla.core.xla_model as xm

    XLA_AVAILABLE = True
else:
    XLA_AVAILABLE = False


class Pipeline:
    def __init__(self, unet, scheduler):
        self.unet = unet
        self.scheduler = scheduler

    @torch.no_grad()
    def __call__(self, latents, timesteps, seed=0):
        torch.manual_seed(seed)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        latents = latents.to(device)
        for t in timesteps:
            noise = self.unet(latents, t)
            latents = self.scheduler.step(noise, t, latents)
            if XLA_AVAILABLE:
                xm.mark_step()
        return latents

    def encode(self, batches, device):
        outputs = []
        for batch in batches:
            batch = batch.to(device)
            outputs.append(self.unet.encode(batch))
        return outputs
