# Class: autocast whose device type is derived from the device string with a string method
# (`device.startswith("cuda")`), the same test as `"cuda" in device` spelled as a call. Once the
# device is "xla" the test is False, the device type becomes "cpu", and bf16 autocast on the
# CPU does nothing for XLA tensors (measured with torch-xla 2.9.0: the product stays float32
# under autocast("cpu"), bfloat16 under autocast("xla")). Both tests follow the device.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda")
args = parser.parse_args()

device = torch.device(args.device)
device_type = "cuda" if args.device.startswith("cuda") else "cpu"
use_amp = str(device).startswith("cuda")
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.AdamW(model.parameters())

for step in range(100):
    x = torch.randn(8, 16, device=device)
    with torch.autocast(device_type=device_type, dtype=torch.bfloat16, enabled=use_amp):
        loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
