# Twin of ddp-off-launch-path: the same DDP wrapper and mp.spawn launcher on the launch path
# (no branch around them): both blockers stay, the launcher sized by a count that is 0 on
# the target starts no process.
import torch
import torch.multiprocessing as mp
import torch_xla
import torch_xla.distributed.xla_backend
from torch.distributed import init_process_group
from torch.nn.parallel import DistributedDataParallel

from data import make_loader


def train(rank, num_gpus):
    init_process_group("xla", rank=rank, world_size=num_gpus)
    device = torch_xla.device()
    model = torch.nn.Linear(8, 2).to(device)
    model = DistributedDataParallel(model, device_ids=[rank]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in make_loader():
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def main():
    num_gpus = torch.cuda.device_count()
    mp.spawn(train, nprocs=num_gpus, args=(num_gpus,))


if __name__ == "__main__":
    main()
