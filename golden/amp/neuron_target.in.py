# golden: target=neuron
import torch

scaler = torch.amp.GradScaler("cuda")


def train_step(model, x, y, optimizer, criterion):
    optimizer.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        loss = criterion(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss
