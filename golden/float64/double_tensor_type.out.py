import torch


def build(x):
    w = torch.FloatTensor(3, 4)
    b = torch.FloatTensor([0.5, 1.5])
    y = x.type(torch.FloatTensor)
    s = x.type("torch.FloatTensor")
    g = torch.cuda.DoubleTensor(3)
    h = x.type(torch.cuda.DoubleTensor)
    if isinstance(x, torch.DoubleTensor):
        print("double")
    return w, b, y, s, g, h
