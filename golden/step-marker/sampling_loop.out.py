# A sampling loop calls the model once per timestep from outside `forward` (through methods of
# its class): without a cut its graph holds every timestep's model call. The model's own
# `forward` and the training step it is called from are not sampling loops. A sampler written as
# a generator is cut in the loop that consumes it.
import torch
import torch_xla
from torch import nn


class Diffusion(nn.Module):
    def __init__(self, model, timesteps):
        super().__init__()
        self.model = model
        self.timesteps = timesteps

    def predict(self, x, t):
        return self.model(x, t)

    def p_sample(self, x, t):
        return x - self.predict(x, t) * 0.1

    @torch.inference_mode()
    def sample(self, shape):
        img = torch.randn(shape)
        for t in reversed(range(self.timesteps)):
            img = self.p_sample(img, t)
            torch_xla.sync()
        return img

    @torch.inference_mode()
    def ddim_sample(self, shape):
        times = list(range(self.timesteps))
        pairs = list(zip(times[:-1], times[1:]))
        img = torch.randn(shape)
        for time, time_next in pairs:
            img = self.p_sample(img, time)
            if time_next < 0:
                torch_xla.sync()
                continue
            img = img * 0.5
            torch_xla.sync()
        return img

    def forward(self, x):
        for t in range(self.timesteps):
            x = self.p_sample(x, t)
        return x


def generate(model, idx, steps):
    for _ in range(steps):
        logits = model(idx)
        idx = torch.cat((idx, logits.argmax(-1, keepdim=True)), dim=1)
        torch_xla.sync()
    return idx


class Sampler(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def progressive(self, img, timesteps):
        for t in range(timesteps):
            img = self.model(img, t)
            yield img

    @torch.no_grad()
    def sample(self, img, timesteps):
        final = None
        for sample in self.progressive(img, timesteps):
            final = sample
            torch_xla.sync()
        return final
