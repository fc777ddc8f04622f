# Twin of ddp_inputs_made_on_device_by_helper: the helper makes its noise on the CPU and only
# checks the device it is handed, so the generator's input may be on the CPU: its `device_ids`
# stays, reported; the discriminator, fed the generator's output, drops them. A helper that
# makes its noise on the device it is handed, handed the CPU (`probe`), keeps them too.
import random

import torch
from torch.nn.parallel import DistributedDataParallel as DDP


def make_noise(batch, dim, count, device):
    if count == 1:
        return torch.randn(batch, dim)
    return torch.randn(count, batch, dim).unbind(0)


def mixing_noise(batch, dim, prob, device):
    if random.random() < prob:
        return make_noise(batch, dim, 2, device)
    return [make_noise(batch, dim, 1, device)]


def make_probe(batch, device):
    return torch.randn(batch, 4, device=device)


def train(rank, generator, discriminator, optimizer, augment, device):
    host = torch.device("cpu")
    probe = DDP(generator.to(device), device_ids=[rank])
    probe(make_probe(8, host))
    generator = DDP(generator.to(device), device_ids=[rank], output_device=rank)
    discriminator = DDP(discriminator.to(device), gradient_as_bucket_view=True)
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
