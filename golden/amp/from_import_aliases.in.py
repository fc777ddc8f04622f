"""Training with `from torch.cuda.amp import ...` and an AMP switch."""
import torch
from torch.cuda.amp import autocast, GradScaler


def train(model, loader, optimizer, criterion, use_amp):
    scaler = GradScaler(enabled=use_amp)
    for step, (x, y) in enumerate(loader):
        with autocast(use_amp):
            loss = criterion(model(x), y)
        scaler.scale(loss / 2).backward()
        if step % 2 == 1:
            scaler.step(optimizer); scaler.update()
            optimizer.zero_grad()
