import torch


def prepare(model, x, y, device):
    model = model.to(torch.float64)
    x = x.to(device, torch.float64)
    y = y.to(dtype=torch.float64)
    z = x.to(device, dtype=torch.float64, non_blocking=True)
    w = y.type(torch.float64)
    u = torch.zeros(3).to(torch.float64)
    v = x.view(torch.float64)  # reinterprets the bytes: not a conversion
    return model, x, y, z, w, u, v
