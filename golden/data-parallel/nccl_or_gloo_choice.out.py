import os
from datetime import timedelta

import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.nn.parallel import DistributedDataParallel as DDP

LOCAL_RANK = int(os.getenv("LOCAL_RANK", -1))


def main():
    model = torch.nn.Linear(4, 4)
    if LOCAL_RANK != -1:
        dist.init_process_group(
            backend="xla", timeout=timedelta(seconds=10800), init_method="xla://"
        )
        model = DDP(model, gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        model(torch.randn(2, 4)).sum().backward()
        optimizer.step()


if __name__ == "__main__":
    main()
