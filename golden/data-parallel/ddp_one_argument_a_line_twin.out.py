# Twin of ddp_one_argument_a_line: a DDP call on one line stays on one line.
import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch import nn


def train(rank, generator, device):
    dist.init_process_group("xla", init_method="xla://")
    generator = nn.parallel.DistributedDataParallel(generator.to(device), gradient_as_bucket_view=True)
    for _ in range(10):
        noise = torch.randn(8, 4, device=device)
        generator(noise).mean().backward()
