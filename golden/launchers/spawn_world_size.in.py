import torch
import torch.multiprocessing as mp


def run(rank, world_size):
    model = torch.nn.Linear(4, 4)
    model(torch.zeros(2, 4)).sum().backward()


if __name__ == "__main__":
    world_size = torch.cuda.device_count()
    mp.spawn(run, args=(world_size,), nprocs=world_size, join=True)
