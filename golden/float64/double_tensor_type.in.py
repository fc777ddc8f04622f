import torch


def build(x):
    w = torch.DoubleTensor(3, 4)
    b = torch.DoubleTensor([0.5, 1.5])
    y = x.type(torch.DoubleTensor)
    s = x.type("torch.DoubleTensor")
    g = torch.cuda.DoubleTensor(3)
    h = x.type(torch.cuda.DoubleTensor)
    if isinstance(x, torch.DoubleTensor):
        print("double")
    return w, b, y, s, g, h
