# golden: scale-out=true select=ALL
import os
import time

import torch
import torch.distributed
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch import nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

EPOCHS = 2
BATCH_SIZE = 16
FEATURES = 64

# A synthetic classification set, made once at import.
generator = torch.Generator().manual_seed(0)
inputs = torch.randn(256, 8, 8, generator=generator)
labels = torch.randint(0, 10, (256,), generator=generator)
train_set = TensorDataset(inputs, labels)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, 32), nn.ReLU(), nn.Linear(32, 10))

    def forward(self, x):
        return torch.log_softmax(self.layers(x), dim=1)


def main():
    train_sampler = DistributedSampler(
        train_set,
        num_replicas=xr.world_size(),
        rank=xr.global_ordinal(),
        shuffle=True,
    )
    train_loader = DataLoader(train_set, batch_size=BATCH_SIZE, sampler=train_sampler, drop_last=True)
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    device = "xla"
    model = Classifier().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = nn.NLLLoss()

    xm.master_print("training")
    model.train()
    for epoch in range(EPOCHS):
        train_sampler.set_epoch(epoch)
        started = time.time()
        for step, (x, y) in enumerate(pl.MpDeviceLoader(train_loader, device)):
            optimizer.zero_grad()
            x = x.view(x.size(0), -1)
            loss = loss_fn(model(x), y)
            loss.backward()
            xm.optimizer_step(optimizer)
        xm.master_print("epoch", epoch, "took", time.time() - started)

    xm.master_print("final loss", loss.detach().to("cpu"))
    os.makedirs("checkpoints", exist_ok=True)
    torch_xla.sync()
    xm.save({"state_dict": model.state_dict()}, "checkpoints/classifier.pt")


# Launch one process per NeuronCore: torchrun --nproc_per_node=32 mlp_classifier.in.py (trn1.32xlarge; 2 on trn1.2xlarge, 64 on trn2.48xlarge)
if __name__ == "__main__":
    if "WORLD_SIZE" in os.environ:  # started by torchrun; one process needs no group
        torch.distributed.init_process_group("xla", init_method="xla://")
    main()
