# Twin of ddp_one_argument_a_line: arguments wrapped without a trailing comma (a hanging
# indent): the new keyword follows the last kept argument on its line, as before.
import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch import nn


def train(rank, generator, device):
    dist.init_process_group("xla", init_method="xla://")
    generator = nn.parallel.DistributedDataParallel(generator.to(device),
                                                    broadcast_buffers=False, gradient_as_bucket_view=True)
    for _ in range(10):
        noise = torch.randn(8, 4, device=device)
        generator(noise).mean().backward()
