import os

import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, loader, optimizer):
        self.gpu_id = int(os.environ["LOCAL_RANK"])
        self.model = model.to(self.gpu_id)
        self.loader = loader
        self.optimizer = optimizer

    def run_epoch(self):
        for source, targets in self.loader:
            source = source.to(self.gpu_id)
            targets = targets.to(self.gpu_id, non_blocking=True)
            self.optimizer.zero_grad()
            F.cross_entropy(self.model(source), targets).backward()
            self.optimizer.step()
        print(f"[GPU{self.gpu_id}] epoch done")


def main(local_rank: int, batch):
    model = torch.nn.Linear(4, 2).cuda(local_rank)
    device = torch.device(f"cuda:{local_rank}")
    device_ids = [local_rank]
    labels = torch.zeros(2).to(device_ids[0])
    return model(batch.to(device)), labels
