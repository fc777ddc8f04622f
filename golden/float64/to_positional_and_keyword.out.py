import torch


def prepare(model, x, y, device):
    model = model.to(torch.float32)
    x = x.to(device, torch.float32)
    y = y.to(dtype=torch.float32)
    z = x.to(device, dtype=torch.float32, non_blocking=True)
    w = y.type(torch.float32)
    u = torch.zeros(3).to(torch.float32)
    v = x.view(torch.float64)  # reinterprets the bytes: not a conversion
    return model, x, y, z, w, u, v
