# Twin of seed_before_spawn: the seed is in the function each worker runs, after the spawn, so
# it seeds the training process: `torch_xla.manual_seed` is added (TRN331).
import torch
import torch.multiprocessing as mp
from torch import nn


def main_worker(rank, seed):
    torch.manual_seed(seed)
    model = nn.Linear(4, 2).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model(torch.randn(8, 4).cuda()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(seed=1, workers=2):
    mp.spawn(main_worker, nprocs=workers, args=(seed,))


if __name__ == "__main__":
    main()
