import torch


def init(model, x):
    torch.set_default_dtype(torch.float32)
    model = model.to(torch.float32)
    buf = torch.ones(4, dtype=torch.float32)
    y = x.to(dtype=torch.float32)
    return model, buf, y
