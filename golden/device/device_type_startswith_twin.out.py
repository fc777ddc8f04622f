# Must not fire (twin of device_type_startswith): `startswith("cuda")` on values that are not
# the training device (a checkpoint's name, a version string), a prefix that is not a device
# type ("cuda:1"), and timm's test joined with torch.cuda.is_available(), which stays False on
# Trainium whatever the device test becomes.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="xla")
parser.add_argument("--checkpoint", default="cuda_run.pt")
args = parser.parse_args()

device = torch.device(args.device)
resumed_from_gpu = args.checkpoint.startswith("cuda")
second_gpu = args.device.startswith("cuda:1")
pinned = args.device.startswith("cuda") and torch.cuda.is_available()
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.AdamW(model.parameters())

for step in range(100):
    x = torch.randn(8, 16, device=device)
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
