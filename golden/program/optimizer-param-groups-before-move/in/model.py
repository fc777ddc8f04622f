import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

    def get_optimizer(self, use_adam=False):
        params = []
        for key, value in dict(self.named_parameters()).items():
            if value.requires_grad:
                if "bias" in key:
                    params += [{"params": [value], "lr": 0.2, "weight_decay": 0}]
                else:
                    params += [{"params": [value], "lr": 0.1, "weight_decay": 1e-4}]
        if use_adam:
            self.optimizer = torch.optim.Adam(params)
        else:
            self.optimizer = torch.optim.SGD(params, momentum=0.9)
        return self.optimizer


class Trainer(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.optimizer = self.net.get_optimizer()

    def train_step(self, x):
        self.optimizer.zero_grad()
        loss = self.net(x).sum()
        loss.backward()
        self.optimizer.step()
        return loss
