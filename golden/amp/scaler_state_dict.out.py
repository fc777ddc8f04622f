import torch


def train(model, loader, optimizer, path):
    scaler = torch.cuda.amp.GradScaler(enabled=False)
    for x, y in loader:
        with torch.autocast("xla", dtype=torch.bfloat16):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    torch.save({"model": model.state_dict(), "scaler": scaler.state_dict()}, path)


class Trainer:
    def __init__(self):
        self.scaler = torch.cuda.amp.GradScaler(enabled=False)
