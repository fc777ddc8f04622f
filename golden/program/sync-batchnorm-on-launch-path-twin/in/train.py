# Twin of sync-batchnorm-on-launch-path: the conversion sits under a flag that is off by default
# and on no launch line (`--sync-bn`): the target never takes the branch, so TRN052 is a warning
# that says so and the entry point runs.
import argparse
import os

import torch
import torch.distributed as dist
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--sync-bn", action="store_true")


def main():
    args = parser.parse_args()
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("nccl")
    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)).cuda(rank)
    if args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 4))
    for (x,) in torch.utils.data.DataLoader(data, batch_size=2):
        x = x.cuda(rank)
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
