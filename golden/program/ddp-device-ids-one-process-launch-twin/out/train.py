# Twin of ddp-device-ids-one-process-launch: the launch starts eight processes a node, so every
# rank but the first has `device_ids=[rank]` naming a device it does not have: a blocker.
import argparse

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
import torch_xla.distributed.xla_backend

from dist import wrap

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", "--local-rank", type=int, default=0)
args = parser.parse_args()

dist.init_process_group(backend="xla", init_method="xla://")
device = torch_xla.device()
model = wrap(args, nn.Linear(8, 2).to(device))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def step(batch):
    x, y = batch
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()


for _ in range(10):
    step((torch.randn(4, 8), torch.randint(0, 2, (4,))))
