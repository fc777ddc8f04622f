# Class: a collective that averages with ReduceOp.AVG, however torch.distributed is imported.
# The `xla` process group raises `Invalid reduce op` for AVG (measured with torch-xla 2.9.0):
# a blocker at each, with the SUM-then-divide form.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch_xla.distributed.xla_backend
from torch.distributed import ReduceOp
from torch.nn.parallel import DistributedDataParallel as DDP


def reduce_mean(value: torch.Tensor) -> torch.Tensor:
    value = value.clone()
    dist.all_reduce(value, op=dist.ReduceOp.AVG)
    return value


def main() -> None:
    dist.init_process_group("xla", init_method="xla://")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(nn.Linear(16, 4).cuda(local_rank), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16).cuda(local_rank)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 10 == 0:
            shown = loss.detach()
            dist.all_reduce(shown, op=ReduceOp.AVG)
            print(reduce_mean(loss.detach()).item(), shown.item())


if __name__ == "__main__":
    main()
