import argparse

import torch
import torch.nn as nn
import torch_xla
from data import *

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_false")
parser.add_argument("--seq_len", type=int, default=40)
args = parser.parse_args()

train_data = batchify(torch.randint(0, 100, (10000,)), 16, args)
model = nn.Embedding(100, 100)
if args.cuda:
    model.to(torch_xla.device())
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train():
    for batch_idx, i in enumerate(range(0, train_data.size(1) - 1, args.seq_len)):
        data, targets = get_batch(train_data, i, args)
        optimizer.zero_grad()
        loss = criterion(model(data).view(-1, 100), targets.reshape(-1))
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    train()
