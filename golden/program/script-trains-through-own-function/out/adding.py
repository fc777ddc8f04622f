# Class: a script without a `__main__` guard whose top level calls its own function that holds
# the training step (TCN's `add_test.py`: `for ep in range(1, epochs + 1): train(ep)`): an
# entry point, judged.
import torch
import torch.nn.functional as F
import torch_xla

from model import Net

model = Net().to(torch_xla.device())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x_train, y_train = torch.randn(64, 4).to(torch_xla.device()), torch.randn(64, 1).to(torch_xla.device())


def step(x, y):
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    optimizer.step()
    torch_xla.sync()


def train(epoch):
    model.train()
    for i in range(0, x_train.size(0), 8):
        step(x_train[i : i + 8], y_train[i : i + 8])


for ep in range(1, 4):
    train(ep)
