# Class: DDP kept with `device_ids=[args.local_rank]` (TRN144: the tool does not see every
# input, so it keeps them), in a program whose every launch starts one process
# (`--nproc_per_node=1`) and whose rank option is never set otherwise: the rank is 0, DDP moves
# the inputs to `xla:0`, the one device the process has, and the step trains. The evaluator
# follows it, and the blocker is a warning that says so. Found at first sight in LoRA's GPT-2
# fine-tuning (after its launch was fixed, measured training on XLA:CPU). Twin:
# ddp-device-ids-one-process-launch-twin (eight processes a node: every rank but the first
# fails, a blocker).
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
