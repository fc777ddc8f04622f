import torch


def init(model, x):
    torch.set_default_dtype(torch.double)
    model = model.to(torch.double)
    buf = torch.ones(4, dtype=torch.double)
    y = x.to(dtype=torch.double)
    return model, buf, y
