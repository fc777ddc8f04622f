# Twin of ddp-inputs-made-by-helper: the helper makes its noise on the CPU (it is given no
# device), so the generator's input may be on the CPU: its `device_ids` stays, a blocker
# (TRN144); the discriminator, fed the generator's output, still drops them.
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
        noise = mixing_noise(8, 4, 0.9)
        fake, _ = generator(noise)
        if scale:
            fake, _ = generator(noise)
        loss = (discriminator(fake) - torch.ones(8, 1, device=device)).pow(2).mean()
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
