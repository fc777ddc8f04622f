# A whole dataset sliced at the step's offset, but also read whole (evaluated in one call), or
# moved under a condition the step's function cannot read, under two conditions, or under one
# that changes before the step: the move is ported as it is (TRN001), and TRN056 says what to
# change. A tensor the step writes into at the offset (`losses`) must stay where it is: ported,
# nothing said.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_false")
parser.add_argument("--pin", action="store_true")
args = parser.parse_args()

X_train, Y_train = torch.rand(1000, 40), torch.rand(1000, 1)
losses = torch.zeros(1000)
losses = losses.cuda()
W_train, V_train, Z_train = torch.rand(1000, 40), torch.rand(1000, 40), torch.rand(1000, 40)
model = nn.Linear(40, 1).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X_train = X_train.cuda()
if args.cuda:
    Y_train = Y_train.cuda()
    if torch.cuda.device_count() > 1:
        W_train = W_train.cuda()
flag = True
if flag:
    V_train = V_train.cuda()
flag = False
if args.pin:
    Z_train = Z_train.cuda()
args.pin = False


def train(batch_size, args):
    for i in range(0, X_train.size(0), batch_size):
        x, y = X_train[i : i + batch_size], Y_train[i : i + batch_size]
        w, v = W_train[i : i + batch_size], V_train[i : i + batch_size]
        w = w + Z_train[i : i + batch_size]
        optimizer.zero_grad()
        loss = F.mse_loss(model(x + w + v), y)
        losses[i : i + batch_size] = loss.detach()
        loss.backward()
        optimizer.step()


def train_loss():
    with torch.no_grad():
        return model(X_train).mean().item()


for epoch in range(3):
    train(32, args)
    print(train_loss())
