import torch
import torch.cuda.amp as amp
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    @amp.autocast()
    def forward(self, x):
        return self.fc(x)


def evaluate(model, batches):
    with amp.autocast(enabled=True, dtype=torch.bfloat16), torch.no_grad():
        return [model(b) for b in batches]
