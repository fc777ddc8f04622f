import torch


def run(model, x, device):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        a = model(x)
    with torch.autocast("xla", dtype=torch.bfloat16):
        b = model(x)
    with torch.autocast(device_type=device.type):
        c = model(x)
    scaler = torch.amp.GradScaler("cpu")
    scaler.scale(a.sum()).backward()
    return a, b, c
