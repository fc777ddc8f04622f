import torch
from torch import nn


class Solver:
    def __init__(self, model, optimizer, epochs):
        self.model = model
        self.optimizer = optimizer
        self.epochs = epochs

    def train(self):
        for epoch in range(self.epochs):
            for step in range(10):
                x = torch.randn(4, 8).cuda()
                y = torch.randint(0, 2, (4,)).cuda()
                loss = nn.functional.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
