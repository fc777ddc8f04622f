# Where an input DDP moved may stay on the CPU (a loader's batch used as it comes, a batch moved
# only on one branch), `device_ids` is kept and reported: dropping it would feed CPU tensors to a
# model on the XLA device.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(rank, model, loader, optimizer):
    dist.init_process_group("nccl")
    ddp_model = DDP(model.to(rank), device_ids=[rank])
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(ddp_model(x), y.to(rank))
        loss.backward()
        optimizer.step()


def evaluate(rank, model, loader, use_accel):
    model = DDP(model.to(rank), device_ids=[rank], output_device=rank)
    for images, target in loader:
        if use_accel:
            images = images.to(rank)
        model(images)
