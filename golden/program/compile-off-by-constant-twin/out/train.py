# Twin of compile-off-by-constant: the flag is True, the compile runs on the launch path and
# its finding stays a blocker where it is not fixed.
import os

import torch
import torch_xla
from torch.nn.parallel import DistributedDataParallel as DDP

device = "xla"
model = torch.nn.Linear(8, 2).to(device)
use_compile = True
if use_compile:
    model = torch.compile(model, backend="openxla")
ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    model = DDP(model, gradient_as_bucket_view=True)
raw_model = model.module if ddp else model
optimizer = torch.optim.SGD(raw_model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(4, 8).to(device)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    if step % 5 == 0 and not use_compile:
        print(step)
