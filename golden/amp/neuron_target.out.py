# golden: target=neuron
import torch


def train_step(model, x, y, optimizer, criterion):
    optimizer.zero_grad()
    with torch.autocast(device_type="neuron", dtype=torch.bfloat16):
        loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    return loss
