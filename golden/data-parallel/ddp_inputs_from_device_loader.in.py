# Class: a DDP batch from an MpDeviceLoader is on the XLA device, not a CPU batch. The loader
# moves every tensor of each batch before the loop body sees it (also through `enumerate`, a
# name bound to the loader, or a ParallelLoader's `per_device_loader`), so every input the step
# feeds is on the device and `device_ids` is dropped (twin:
# ddp_inputs_from_device_loader_twin).
import torch
import torch.distributed as dist
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.nn.parallel import DistributedDataParallel as DDP


class Trainer:
    def __init__(self, model, loader, optimizer, gpu_id):
        self.model = DDP(model.to(torch_xla.device()), device_ids=[gpu_id])
        self.loader = loader
        self.optimizer = optimizer

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(self.model(source), targets)
        loss.backward()
        self.optimizer.step()

    def run_epoch(self):
        device = torch_xla.device()
        for source, targets in pl.MpDeviceLoader(self.loader, device):
            self._run_batch(source, targets)


def train(rank, model, loader, optimizer):
    dist.init_process_group("xla", init_method="xla://")
    ddp_model = DDP(model, device_ids=[rank])
    device_loader = pl.MpDeviceLoader(loader, torch_xla.device())
    for _step, (x, y) in enumerate(device_loader):
        loss = torch.nn.functional.mse_loss(ddp_model(x), y)
        loss.backward()
        optimizer.step()


def evaluate(rank, model, loader):
    model = DDP(model, device_ids=[rank], output_device=rank)
    per_device = pl.ParallelLoader(loader, [torch_xla.device()]).per_device_loader(
        torch_xla.device()
    )
    for images, _ in per_device:
        model(images)
