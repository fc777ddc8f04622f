import torch
import torch.distributed as dist
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_backend
from torch.nn.utils import clip_grad_norm_

dist.init_process_group("xla", init_method="xla://")
for step, (x, y) in enumerate(loader):
    loss = torch.nn.functional.mse_loss(model(x), y) / accumulation
    loss.backward()
    if (step + 1) % accumulation == 0:
        xm.reduce_gradients(optimizer)
        # clip the averaged gradients
        clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        optimizer.zero_grad()
