# Class: a DDP call laid out one argument a line with a trailing comma (black's and ruff's
# layout for a call that does not fit): `gradient_as_bucket_view=True` goes on a line of its own
# and the parenthesis stays on its own line. Twin (ddp_one_argument_a_line_twin): arguments
# wrapped without a trailing comma: the keyword follows the last one on its line.
import torch
import torch.distributed as dist
from torch import nn


def train(rank, generator, discriminator, device):
    dist.init_process_group("nccl")
    generator = nn.parallel.DistributedDataParallel(
        generator.to(device),
        device_ids=[rank],
        output_device=rank,
        broadcast_buffers=False,
    )
    discriminator = nn.parallel.DistributedDataParallel(
        discriminator.to(device),
        device_ids=[rank],
    )
    for _ in range(10):
        noise = torch.randn(8, 4, device=device)
        discriminator(generator(noise)).mean().backward()
