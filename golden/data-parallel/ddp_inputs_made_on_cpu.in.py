# DDP with device_ids moved its inputs to the GPU; the XLA form moves nothing. An input made on
# the CPU (the shape of pytorch/examples distributed/ddp/example.py) is moved in the same change;
# inputs moved by the step itself (the ddp-tutorial-series Trainer) need nothing.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(10, 5)

    def forward(self, x):
        return self.net(x)


def demo_basic(rank):
    model = ToyModel().to(rank)
    ddp_model = DDP(model, device_ids=[rank])
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.001)
    optimizer.zero_grad()
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(rank)
    nn.MSELoss()(outputs, labels).backward()
    optimizer.step()


class Trainer:
    def __init__(self, model, train_data, optimizer, gpu_id):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)
        self.train_data = train_data
        self.optimizer = optimizer
        self.model = DDP(self.model, device_ids=[gpu_id])

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(source), targets)
        loss.backward()
        self.optimizer.step()

    def run_epoch(self):
        for source, targets in self.train_data:
            source = source.to(self.gpu_id)
            targets = targets.to(self.gpu_id)
            self._run_batch(source, targets)


if __name__ == "__main__":
    dist.init_process_group("nccl")
    demo_basic(int(os.environ["LOCAL_RANK"]))
