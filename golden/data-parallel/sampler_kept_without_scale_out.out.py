# Without --scale-out the script's own process group gives its samplers the world size and rank:
# nothing is spelled out (twin of sampler_from_runtime).
import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def main(train_set, val_set, replicas):
    dist.init_process_group("xla", init_method="xla://")
    device = torch_xla.device()
    # The world size and rank come from the process group: the runtime's are added.
    train_sampler = DistributedSampler(train_set)
    val_sampler = torch.utils.data.distributed.DistributedSampler(val_set, shuffle=False, drop_last=True)
    test_sampler = DistributedSampler(
        val_set,
    )
    # Chosen by the script: kept.
    half_sampler = DistributedSampler(train_set, num_replicas=replicas, rank=0)
    train_loader = DataLoader(train_set, batch_size=8, sampler=train_sampler, drop_last=True)
    model = torch.nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in train_loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        loss.backward()
        xm.optimizer_step(optimizer)
