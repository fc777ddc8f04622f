# Class: each input of a DDP model is on the device without a move at the call: made by a helper
# of the module with the device it is handed (`make_noise(..., device)` → `torch.randn(...,
# device=device).unbind(0)`, through a second helper), or another DDP model's output
# (`fake, _ = generator(noise)`, also rebound by an `if`). `device_ids` is dropped with nothing
# to move. Twin (ddp_inputs_made_on_device_by_helper_twin): the helper makes its noise on the
# CPU, so the generator keeps `device_ids` and reports it.
import random

import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def make_noise(batch, dim, count, device):
    if count == 1:
        return torch.randn(batch, dim, device=device)
    return torch.randn(count, batch, dim, device=device).unbind(0)


def mixing_noise(batch, dim, prob, device):
    if random.random() < prob:
        return make_noise(batch, dim, 2, device)
    return [make_noise(batch, dim, 1, device)]


def train(rank, generator, discriminator, optimizer, augment, device):
    generator = DDP(generator.to(device), device_ids=[rank], output_device=rank)
    discriminator = DDP(discriminator.to(device), device_ids=[rank], output_device=rank)
    for _ in range(10):
        noise = mixing_noise(8, 4, 0.9, device)
        fake, _ = generator(noise)
        if augment:
            fake = fake.flip(0)
        else:
            fake, _ = generator(noise, truncation=0.7)
        loss = discriminator(fake).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
