# Twin of ddp_one_argument_a_line: a DDP call on one line stays on one line.
import torch
import torch.distributed as dist
from torch import nn


def train(rank, generator, device):
    dist.init_process_group("nccl")
    generator = nn.parallel.DistributedDataParallel(generator.to(device), device_ids=[rank])
    for _ in range(10):
        noise = torch.randn(8, 4, device=device)
        generator(noise).mean().backward()
