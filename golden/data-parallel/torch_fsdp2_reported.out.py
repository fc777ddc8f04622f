import os

import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.distributed.fsdp import fully_shard


def main():
    rank = int(os.environ["LOCAL_RANK"])
    dist.init_process_group("xla", init_method="xla://")
    model = Transformer(args)
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    optim = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        loss = model(x).sum()
        loss.backward()
        optim.step()
        optim.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
