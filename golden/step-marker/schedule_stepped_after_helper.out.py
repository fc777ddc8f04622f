"""The same optimizer stepped after a helper that computes the loss and its gradient: a training
loop, cut after the step."""
import matplotlib.pyplot as plt
import torch
import torch_xla
from torch import nn
from torch.optim import Adam


class WarmupAdam:
    def __init__(self, optimizer, dim, warmup):
        self.optimizer, self.dim, self.warmup, self.steps = optimizer, dim, warmup, 0

    def get_current_learning_rate(self):
        return self.dim**-0.5 * min(self.steps**-0.5, self.steps * self.warmup**-1.5)

    def step(self):
        self.steps += 1
        for group in self.optimizer.param_groups:
            group["lr"] = self.get_current_learning_rate()
        self.optimizer.step()


def backward_pass(model, x):
    model(x).pow(2).mean().backward()


def plot_schedule():
    model = nn.Linear(2, 2).to(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
    optimizer = WarmupAdam(Adam(model.parameters()), 512, 4000)
    rates = []
    for i in range(100000):
        backward_pass(model, torch.randn(4, 2))
        optimizer.step()
        torch_xla.sync()
        rates.append(optimizer.get_current_learning_rate())
    plt.plot(rates)
