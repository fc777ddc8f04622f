# golden: select=TRN12,TRN10
import numpy as np
import torch
import torch_xla


def train_epoch(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        x, y = x.to("xla"), y.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        losses.append(loss.detach())
    losses = torch.stack(losses).flatten().tolist() if losses else []
    return np.mean(losses)
