import torch
import torch.multiprocessing as mp


def worker(rank):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


mp.start_processes(worker, nprocs=max(1, torch.cuda.device_count()), start_method="spawn")
