# golden: target=xla-2.1
import torch
import torch.distributed
import torch_xla.core.xla_model as xm
import torch_xla.runtime as xr
from torch.utils.data import DistributedSampler

sampler = DistributedSampler(ds, xr.world_size(), xr.global_ordinal())


def train_step(x, y):
    torch.nn.functional.mse_loss(model(x), y).backward()
    xm.optimizer_step(optimizer)
    optimizer.zero_grad()
