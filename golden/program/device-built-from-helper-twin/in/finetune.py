import argparse

import torch

from common.setup import autodetect_device_type, compute_init

parser = argparse.ArgumentParser()
parser.add_argument("--device-type", default="")
args = parser.parse_args()
device_type = autodetect_device_type() if args.device_type == "" else args.device_type
rank, device = compute_init(device_type)
model = torch.nn.Linear(4, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(10):
    batch = torch.randn(2, 4, device=device)
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
