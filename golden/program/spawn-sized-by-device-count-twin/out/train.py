# Twin: the same launcher sized by a count the user gives (`--gpus`, 1 by default), by position:
# processes start; the entry point runs (TRN168 still names the launcher to use on Trainium).
import argparse

import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--gpus", type=int, default=1)


def main():
    args = parser.parse_args()
    args.ngpus_per_node = args.gpus
    args.world_size = args.ngpus_per_node
    torch.multiprocessing.spawn(main_worker, (args,), args.ngpus_per_node)


def main_worker(gpu, args):
    model = torch.nn.Linear(4, 4).to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 4))
    device = torch_xla.device()
    for _ in range(args.epochs):
        for (x,) in pl.MpDeviceLoader(torch.utils.data.DataLoader(data, batch_size=2), device):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


if __name__ == "__main__":
    main()
