# Class: a seed in the function that then starts the training workers (`mp.spawn(main_worker,
# ...)`). `torch_xla.manual_seed` there would start the XLA runtime in the parent process, which
# would hold the NeuronCores the workers need, and still leave each worker's XLA RNG unseeded:
# reported (TRN331), not added.
import random

import torch
import torch.multiprocessing as mp
from torch import nn


def main_worker(rank, seed):
    model = nn.Linear(4, 2).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(8, 4).cuda()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(seed=1, workers=2):
    random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    mp.spawn(main_worker, nprocs=workers, args=(seed,))


if __name__ == "__main__":
    main()
