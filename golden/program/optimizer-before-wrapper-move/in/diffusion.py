import torch
from torch import nn


class Trainer(nn.Module):
    def __init__(self, model, T):
        super().__init__()
        self.model = model
        self.T = T

    def forward(self, x):
        t = torch.randint(self.T, (x.shape[0],), device=x.device)
        return (self.model(x) - t[:, None].float()).pow(2).mean()
