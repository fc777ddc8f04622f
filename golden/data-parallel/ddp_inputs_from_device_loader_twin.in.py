# Twin of ddp_inputs_from_device_loader: `device_ids` is kept and reported where the batch may
# come from a loader that moves nothing (a plain DataLoader, or an MpDeviceLoader on one branch
# only), as DDP moved those inputs itself.
import torch
import torch.distributed as dist
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader


def train(rank, model, dataset, optimizer):
    dist.init_process_group("xla", init_method="xla://")
    ddp_model = DDP(model, device_ids=[rank])
    device_loader = DataLoader(dataset, batch_size=8)
    for _step, (x, y) in enumerate(device_loader):
        loss = torch.nn.functional.mse_loss(ddp_model(x), y)
        loss.backward()
        optimizer.step()


def evaluate(rank, model, loader, on_device):
    model = DDP(model, device_ids=[rank], output_device=rank)
    if on_device:
        loader = pl.MpDeviceLoader(loader, torch_xla.device())
    for images, _ in loader:
        model(images)
