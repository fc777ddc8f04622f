# Must not be a blocker (twin of backend_held_by_flag): a backend read from the environment
# (the launcher decides it) cannot be told here: it is reported, not claimed to stop the port.
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main() -> None:
    dist.init_process_group(backend=os.environ["BACKEND"])
    model = DDP(nn.Linear(16, 4).to("cuda"))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16).to("cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
