import torch
import torch_xla
from torch import nn


class Solver:
    def __init__(self, model, optimizer, epochs):
        self.model = model
        self.optimizer = optimizer
        self.epochs = epochs

    def train(self):
        device = torch_xla.device()
        for epoch in range(self.epochs):
            for step in range(10):
                x = torch.randn(4, 8).to(device)
                y = torch.randint(0, 2, (4,)).to(device)
                loss = nn.functional.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                torch_xla.sync()
