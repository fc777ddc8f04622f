from torch import nn
from torchhelpers import *

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 2)
        self.priors = torch.zeros(2).to(device)

    def forward(self, x):
        return self.linear(x) + self.priors
