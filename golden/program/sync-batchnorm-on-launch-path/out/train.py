# Class: `nn.SyncBatchNorm.convert_sync_batchnorm(model)` on the model a data-parallel step trains
# on the XLA device: the first training forward raises, so the entry point does not run, blocker
# (TRN052) at the conversion.
import argparse
import os

import torch
import torch.distributed as dist
import torch_xla
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_backend
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--sync-bn", action="store_true", default=True)


def main():
    args = parser.parse_args()
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("xla", init_method="xla://")
    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)).to(torch_xla.device())
    if args.sync_bn:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    model = nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.zeros(8, 4))
    device = torch_xla.device()
    for (x,) in pl.MpDeviceLoader(torch.utils.data.DataLoader(data, batch_size=2), device):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
