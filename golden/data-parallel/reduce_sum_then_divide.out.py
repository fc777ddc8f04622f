# Must not fire (TRN148's twin): SUM, MAX and a division by the world size run in the `xla`
# process group; an attribute named AVG on another object is not torch's ReduceOp.
import enum
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch_xla.distributed.xla_backend
from torch.nn.parallel import DistributedDataParallel as DDP


class Mode(enum.Enum):
    AVG = "avg"
    SUM = "sum"


def reduce_mean(value: torch.Tensor) -> torch.Tensor:
    value = value.clone()
    dist.all_reduce(value, op=dist.ReduceOp.SUM)
    return value / dist.get_world_size()


def main() -> None:
    dist.init_process_group("xla", init_method="xla://")
    local_rank = int(os.environ["LOCAL_RANK"])
    model = DDP(nn.Linear(16, 4).cuda(local_rank), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    mode = Mode.AVG
    for step in range(100):
        x = torch.randn(8, 16).cuda(local_rank)
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 10 == 0 and mode is Mode.AVG:
            peak = loss.detach()
            dist.all_reduce(peak, op=dist.ReduceOp.MAX)
            print(reduce_mean(loss.detach()).item(), peak.item())


if __name__ == "__main__":
    main()
