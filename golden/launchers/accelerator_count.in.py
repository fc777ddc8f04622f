import torch
import torch.multiprocessing as mp


def main(rank, world_size):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


def launch():
    n_devices = torch.accelerator.device_count()
    world_size = n_devices
    mp.spawn(main, args=(world_size,), nprocs=world_size)
