# ASGD and Rprop without `capturable=True` copy their state to the host and compile a new graph
# every step on XLA (awd-lstm-lm main.py). Where the module whose parameters they take is moved
# to the device earlier in the same script or function, on every run, and not rebound in
# between, `capturable=True` is added.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_false")
parser.add_argument("--lr", type=float, default=30)
args = parser.parse_args()

model = torch.nn.LSTM(4, 4)
if args.cuda:
    model = model.cuda()

optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
for epoch in range(3):
    if epoch == 2:
        optimizer = torch.optim.ASGD(model.parameters(), lr=args.lr, t0=0, lambd=0.0, capturable=True)


def train(net):
    device = torch.device("cuda")
    net.to(device)
    rprop = torch.optim.Rprop(net.parameters(), lr=0.01, foreach=False, capturable=True)
    averaged = torch.optim.ASGD(net.parameters(), capturable=True)
    return rprop, averaged
