# Class: a DDP call wrapped over lines, one argument a line with a trailing comma (black's and
# ruff's layout for a call that does not fit) or with a hanging indent: `gradient_as_bucket_view
# =True` goes on a line of its own, indented as the call's wrapped arguments, and a parenthesis
# on its own line stays there. Twin (ddp_one_argument_a_line_twin): a call on one line stays on
# one line.
import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch import nn


def train(rank, generator, discriminator, critic, device):
    dist.init_process_group("xla", init_method="xla://")
    generator = nn.parallel.DistributedDataParallel(
        generator.to(device),
        broadcast_buffers=False,
        gradient_as_bucket_view=True,
    )
    discriminator = nn.parallel.DistributedDataParallel(
        discriminator.to(device),
        gradient_as_bucket_view=True,
    )
    critic = nn.parallel.DistributedDataParallel(critic.to(device), find_unused_parameters=True,
                                                 gradient_as_bucket_view=True)
    for _ in range(10):
        noise = torch.randn(8, 4, device=device)
        discriminator(generator(noise)).mean().backward()
        critic(noise).mean().backward()
