import os

import numpy as np
import torch
import torch_xla.core.xla_model as xm

# torch.double keeps the running loss in f32 while everything else runs in bf16.
os.environ["XLA_DOWNCAST_BF16"] = "1"


def train(model, loader, optimizer):
    device = xm.xla_device()
    running_loss = torch.zeros(1, dtype=torch.double, device=device)
    weights = torch.from_numpy(np.ones(4, dtype=np.float64)).to(device)
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        running_loss += loss.detach().double()
        xm.mark_step()
    return running_loss, weights
