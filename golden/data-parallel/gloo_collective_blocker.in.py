# Class: a gloo process group whose script all-reduces tensors itself (hand-written gradient
# averaging). On the XLA device a gloo collective returns without exchanging anything (each rank
# keeps its own values, measured): every rank trains alone, silently. A blocker at the group.
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
    grads = torch.cat([p.grad.view(-1) for p in model.parameters()])
    dist.all_reduce(grads, op=dist.ReduceOp.SUM)
    optimizer.step()
