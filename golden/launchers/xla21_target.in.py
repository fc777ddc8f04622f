# golden: target=xla-2.1
import torch
import torch.multiprocessing as mp


def run(rank, world_size):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


world_size = torch.cuda.device_count()
mp.spawn(run, args=(world_size,), nprocs=world_size)
