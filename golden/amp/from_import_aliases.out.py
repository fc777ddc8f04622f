"""Training with `from torch.cuda.amp import ...` and an AMP switch."""
import torch


def train(model, loader, optimizer, criterion, use_amp):
    for step, (x, y) in enumerate(loader):
        with torch.autocast("xla", dtype=torch.bfloat16, enabled=use_amp):
            loss = criterion(model(x), y)
        (loss / 2).backward()
        if step % 2 == 1:
            optimizer.step()
            optimizer.zero_grad()
