import torch
from torch.multiprocessing import spawn


def main(rank):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


spawn(main, nprocs=torch.cuda.device_count())
