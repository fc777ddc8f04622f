import torch


def build(model):
    return torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=5e-4)
