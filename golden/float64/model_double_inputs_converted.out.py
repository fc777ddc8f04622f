# A model made float64 becomes float32 together with its inputs, where each input's dtype is
# visible: a float64 NumPy array (TRN205), a `.double()` tensor, a torch factory. And a model
# passed to a function the tool does not follow keeps its float64 (TRN220).
import numpy as np
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 1)

    def forward(self, x):
        return self.linear(x) + torch.zeros(1, dtype=torch.float32)


class Probe(nn.Module):
    def forward(self, x):
        return x.sum() + torch.ones(1, dtype=torch.float64)


def fit(model, features):
    return model(features)


if __name__ == "__main__":
    x = torch.from_numpy(np.random.randn(64, 4)).float()
    y = torch.linspace(0, 1, 64).float()
    model = Regressor().float()
    loss = ((model(x) - y) ** 2).mean()
    loss = loss + model(torch.randn(2, 4)).sum()
    other = Probe()
    other.double()
    fit(other, x)
