# Class: a DDP wrapper and an mp.spawn launcher in a branch sized by the CUDA device count
# (`if num_gpus > 1`), which is 0 on the target: the `else` trains in this process, so the
# wrapper's and the launcher's blockers are off the launch path (warnings that say so).
import torch
import torch.multiprocessing as mp
from torch.distributed import init_process_group
from torch.nn.parallel import DistributedDataParallel

from data import make_loader


def train(rank, num_gpus):
    if num_gpus > 1:
        init_process_group("nccl", rank=rank, world_size=num_gpus)
    device = torch.device("cuda")
    model = torch.nn.Linear(8, 2).to(device)
    if num_gpus > 1:
        model = DistributedDataParallel(model, device_ids=[rank]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in make_loader():
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    num_gpus = torch.cuda.device_count()
    if num_gpus > 1:
        mp.spawn(train, nprocs=num_gpus, args=(num_gpus,))
    else:
        train(0, num_gpus)


if __name__ == "__main__":
    main()
