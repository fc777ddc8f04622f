"""accelerate asked for the CPU: `accelerator.device` is the CPU, and so is every input; the model
too: nothing trains on the accelerator."""

import torch
import torch_xla
from accelerate import Accelerator
from torch import nn


def batches(device):
    while True:
        yield torch.randn(16, 32).to(device), torch.randint(0, 4, (16,)).to(device)


def train(cpu=False):
    accelerator = Accelerator(cpu=cpu)
    device = accelerator.device
    model = nn.Linear(32, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model, optimizer = accelerator.prepare(model, optimizer)
    data = batches(device)
    for step in range(100):
        x, y = next(data)
        loss = nn.functional.cross_entropy(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    train(cpu=True)
