# golden: target=neuron
"""aws-neuron-samples train_torchrun.py shape: the xla process group, DDP, world size and rank
from torch_xla.runtime, rendezvous, master-only printing and saving."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("neuron")


def main(dataset, model):
    device = torch.device("neuron")
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if int(os.environ.get("RANK", "0")) == 0:
        os.makedirs("data", exist_ok=True)
    if torch.distributed.is_initialized():
        torch.distributed.barrier()
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=int(os.environ.get("RANK", "0")))
    loader = DataLoader(dataset, batch_size=32, sampler=sampler, drop_last=True)
    model = DDP(model.to(device), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01 * world_size)
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
    if int(os.environ.get("RANK", "0")) == 0:
        print("local rank", int(os.environ.get("LOCAL_RANK", "0")), "done", flush=True)
    if int(os.environ.get("LOCAL_RANK", "0")) == 0:
        torch.save(model.state_dict(), "checkpoint.pt")


if __name__ == "__main__":
    main(None, None)
