# Twin of device-count-from-json-config: the same DDP wrapper and mp.spawn launcher, but the
# JSON config the launch line names asks for two GPUs (`"num_gpus": 2`), so the branch is on
# the launch path and both blockers stay; nothing is guessed from the file's other values.
import argparse
import json

import torch
import torch.multiprocessing as mp
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.distributed import init_process_group
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset

from env import AttrDict


def train(rank, a, h):
    if h.num_gpus > 1:
        init_process_group(
            backend=h.dist_config["dist_backend"],
            init_method=h.dist_config["dist_url"],
            world_size=h.dist_config["world_size"] * h.num_gpus,
            rank=rank,
        )
    device = torch_xla.device()
    model = torch.nn.Linear(8, 2).to(device)
    if h.num_gpus > 1:
        model = DistributedDataParallel(model, device_ids=[rank]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=h.learning_rate)
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    for x, y in pl.MpDeviceLoader(DataLoader(data, batch_size=h.batch_size), device):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="")
    a = parser.parse_args()
    with open(a.config) as f:
        data = f.read()
    h = AttrDict(json.loads(data))
    if torch.cuda.is_available():
        h.num_gpus = torch.cuda.device_count()
    if h.num_gpus > 1:
        mp.spawn(train, nprocs=h.num_gpus, args=(a, h))
    else:
        train(0, a, h)


if __name__ == "__main__":
    main()
