import os

import torch
import torch.nn.functional as F
import torch_xla


class Trainer:
    def __init__(self, model, loader, optimizer):
        self.gpu_id = int(os.environ["LOCAL_RANK"])
        self.model = model.to(torch_xla.device())
        self.loader = loader
        self.optimizer = optimizer

    def run_epoch(self):
        device = torch_xla.device()
        for source, targets in self.loader:
            source = source.to(device)
            targets = targets.to(device, non_blocking=True)
            self.optimizer.zero_grad()
            F.cross_entropy(self.model(source), targets).backward()
            self.optimizer.step()
        print(f"[GPU{self.gpu_id}] epoch done")


def main(local_rank: int, batch):
    model = torch.nn.Linear(4, 2).to(torch_xla.device())
    device = torch_xla.device()
    device_ids = [local_rank]
    labels = torch.zeros(2).to(torch_xla.device())
    return model(batch.to(device)), labels
