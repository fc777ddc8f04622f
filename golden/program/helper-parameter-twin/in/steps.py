import torch


def train_step(model, optimizer, batch, device):
    loss = model(batch.to(device)).sum()
    loss.backward()
    optimizer.step()
