import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu", help="where to train")
args = parser.parse_args()

model = torch.nn.Linear(4, 4).to(args.device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2, 4).to(args.device)).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
