import torch
import torch_xla
from torch import nn
from utils import *

device = torch.device("xla")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 2)
        self.priors = torch.zeros(2).to(device)

    def forward(self, x):
        return self.linear(x) + self.priors
