import argparse
import os

import torch

os.environ.setdefault("NEURON_RT_STOCHASTIC_ROUNDING_EN", "1")

parser = argparse.ArgumentParser()
args = parser.parse_args()
model = Net()
model.bfloat16()
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
