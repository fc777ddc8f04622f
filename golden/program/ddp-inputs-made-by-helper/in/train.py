# Class: each input of a DDP model is made on the device by the program itself: by a helper of
# another module given the script's device (`mixing_noise(..., device)` → `torch.randn(...,
# device=device)`), or it is another DDP model's output (`fake, _ = generator(noise)`, also
# after an `if` that only rescales it). DDP's `device_ids` is dropped (TRN144) with nothing to
# move. Twin (ddp-inputs-made-by-helper-twin): the helper makes its tensor on the CPU, so the
# generator's `device_ids` stays, a blocker.
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from noise import mixing_noise


class Generator(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 4)

    def forward(self, noise):
        out = self.layer(noise[0])
        return out, noise


def train(generator, discriminator, optimizer, scale, device):
    for _ in range(10):
        noise = mixing_noise(8, 4, 0.9, device)
        fake, _ = generator(noise)
        if scale:
            fake, _ = generator(noise)
        loss = discriminator(fake).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    device = "cuda"
    generator = DDP(Generator().to(device), device_ids=[rank], output_device=rank)
    discriminator = DDP(torch.nn.Linear(4, 1).to(device), device_ids=[rank], output_device=rank)
    parameters = [*generator.parameters(), *discriminator.parameters()]
    optimizer = torch.optim.SGD(parameters, lr=0.1)
    train(generator, discriminator, optimizer, False, device)
