# golden: target=neuron
"""aws-neuron-samples train_torchrun.py shape: the xla process group, DDP, world size and rank
from torch_xla.runtime, rendezvous, master-only printing and saving."""
import os

import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
import torch_xla.runtime as xr
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("xla", init_method="xla://")


def main(dataset, model):
    device = xm.xla_device()
    world_size = xr.world_size()
    if xr.global_ordinal() == 0:
        os.makedirs("data", exist_ok=True)
    xm.rendezvous("dataset ready")
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=xr.global_ordinal())
    loader = DataLoader(dataset, batch_size=32, sampler=sampler, drop_last=True)
    model = DDP(model.to(device), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01 * world_size)
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        xm.optimizer_step(optimizer)
    xm.master_print("local rank", xr.local_ordinal(), "done", flush=True)
    xm.save(model.state_dict(), "checkpoint.pt")


if __name__ == "__main__":
    main(None, None)
