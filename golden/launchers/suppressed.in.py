import torch
import torch.multiprocessing as mp


def run(rank):
    torch.nn.Linear(4, 4)(torch.zeros(2, 4)).sum().backward()


mp.spawn(run, nprocs=torch.cuda.device_count())  # noqa: TRN025
