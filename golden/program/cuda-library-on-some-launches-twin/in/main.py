import argparse

import torch

import model

parser = argparse.ArgumentParser()
parser.add_argument("--model", type=str, default="LSTM")
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()

net = model.RNNModel(args.model, 100, 32).cuda()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(args.epochs):
    for step in range(10):
        data = torch.randint(0, 100, (8, 4)).cuda()
        optimizer.zero_grad()
        loss = net(data).sum()
        loss.backward()
        optimizer.step()
