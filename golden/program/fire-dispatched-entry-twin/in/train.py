# Twin of fire-dispatched-entry: no launch line names the command `fire.Fire()` runs, so the
# evaluator cannot tell which function trains: "cannot tell" at the call, not "no step".
import fire
import torch
from torch import nn


def train(epochs=1, lr=0.1):
    model = nn.Linear(4, 2).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        for _ in range(10):
            x = torch.randn(8, 4).cuda()
            loss = model(x).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def evaluate():
    model = nn.Linear(4, 2)
    print(model(torch.randn(8, 4)).sum())


if __name__ == "__main__":
    fire.Fire()
