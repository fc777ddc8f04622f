# golden: select=TRN12,TRN10
import numpy as np
import torch


def train_epoch(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        x, y = x.to("xla"), y.to("xla")
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return np.mean(losses)
