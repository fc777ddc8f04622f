import torch
from torch import nn


def resnet_tiny():
    return nn.Linear(8, 8)


class SimNet(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.encoder = nn.Sequential(self.backbone, nn.Linear(8, 8))

    def forward(self, x):
        f = self.encoder
        return f(x).pow(2).mean()
