import torch


def train(model, loader, optimizer):
    for x, y in loader:
        with torch.autocast("xla", dtype=torch.bfloat16):
            loss = model(x, y)
        loss.backward()
        optimizer.step()
