# A DataLoader worker's seeding gets no XLA seed: the function asks for the worker's info, or is
# passed as worker_init_fn (also through functools.partial). Workers load data on the host; the
# training process's seed in main() gets it.
import functools
import random

import torch
from torch.utils.data import DataLoader


def _worker_init(worker_id, base_seed):
    info = torch.utils.data.get_worker_info()
    seed = base_seed + info.id
    random.seed(seed)
    torch.manual_seed(seed)


def seed_worker(worker_id):
    torch.manual_seed(worker_id)


def main(dataset, seed):
    torch.manual_seed(seed)
    model = torch.nn.Linear(4, 2).cuda()
    loader = DataLoader(
        dataset, num_workers=2, worker_init_fn=functools.partial(_worker_init, base_seed=seed)
    )
    other = DataLoader(dataset, num_workers=2, worker_init_fn=seed_worker)
    return model, loader, other
