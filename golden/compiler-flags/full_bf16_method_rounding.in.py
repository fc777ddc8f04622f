import argparse

import torch

parser = argparse.ArgumentParser()
args = parser.parse_args()
model = Net()
model.bfloat16()
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
