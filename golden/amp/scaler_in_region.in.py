import torch


def train(model, loader, optimizer):
    for x, y in loader:
        with torch.cuda.amp.autocast():
            scaler = torch.cuda.amp.GradScaler()
            loss = model(x, y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
