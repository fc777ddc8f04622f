# Class: a gloo process group whose script all-reduces tensors itself. Twin: the group only
# synchronises the processes (a barrier), no tensor goes through it: a note, not a blocker.
import os

import torch
import torch.distributed as dist
import torch.nn as nn

dist.init_process_group("gloo", rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]))
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    loss = model(torch.randn(8, 4, device=device)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.barrier()
