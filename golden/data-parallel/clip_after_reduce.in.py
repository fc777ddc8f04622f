import torch
import torch.distributed as dist
from torch.nn.utils import clip_grad_norm_

dist.init_process_group("nccl")
for step, (x, y) in enumerate(loader):
    loss = torch.nn.functional.mse_loss(model(x), y) / accumulation
    loss.backward()
    if (step + 1) % accumulation == 0:
        # clip the averaged gradients
        clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        optimizer.zero_grad()
