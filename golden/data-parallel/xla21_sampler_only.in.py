# golden: target=xla-2.1
import torch
import torch.distributed
from torch.utils.data import DistributedSampler

sampler = DistributedSampler(ds, torch.distributed.get_world_size(), torch.distributed.get_rank())


def train_step(x, y):
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    optimizer.zero_grad()
