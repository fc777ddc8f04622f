# Must not fire: generators on the CPU (no device, "cpu", or a device the script chooses for
# them apart from training) are what torch-xla supports; the training device is still moved.
import argparse

import torch
import torch.nn as nn
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--generator-device", default="cpu")
args = parser.parse_args()

device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader_generator = torch.Generator()
loader_generator.manual_seed(0)
sampling_generator = torch.Generator(device="cpu")
chosen_generator = torch.Generator(device=args.generator_device)

for step in range(100):
    x = torch.randn(8, 16, generator=sampling_generator).to(device)
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
