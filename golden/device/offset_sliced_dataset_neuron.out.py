# golden: target=neuron
# TorchNeuron runs eagerly: a slice at a new offset is the same op on the same shape, no new
# graph; the dataset moves whole as before (TRN001), and TRN056 says nothing.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_false")
args = parser.parse_args()

X_train, Y_train = torch.rand(1000, 2, 20), torch.rand(1000, 1)
X_test, Y_test = torch.rand(100, 2, 20), torch.rand(100, 1)
batch_size = 32
model = nn.Sequential(nn.Flatten(), nn.Linear(40, 1))

if args.cuda:
    model.to(torch.device("neuron"))
    X_train = X_train.to(torch.device("neuron"))
    Y_train = Y_train.to(torch.device("neuron"))
    X_test = X_test.to(torch.device("neuron"))
    Y_test = Y_test.to(torch.device("neuron"))

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train():
    model.train()
    for i in range(0, X_train.size(0), batch_size):
        if i + batch_size > X_train.size(0):
            x, y = X_train[i:], Y_train[i:]
        else:
            x, y = X_train[i : (i + batch_size)], Y_train[i : (i + batch_size)]
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()


def evaluate():
    model.eval()
    with torch.no_grad():
        output = model(X_test)
        return F.mse_loss(output, Y_test).item()


if __name__ == "__main__":
    for epoch in range(3):
        train()
        print(evaluate())
