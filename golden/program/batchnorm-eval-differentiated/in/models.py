import torch.nn as nn


class WideNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.bn1(self.conv(x)).relu().mean((2, 3)))
