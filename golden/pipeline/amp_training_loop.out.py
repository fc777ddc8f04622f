# golden: select=TRN0,TRN10,TRN30,TRN31
"""A typical CUDA AMP training script."""
import argparse
import os

import torch
import torch.nn as nn
import torch_xla
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"


def train(model, loader, optimizer, scaler, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("xla", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        torch_xla.sync()
        scaler.update()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = [(torch.randn(16), 0)] * 32
    loader = DataLoader(data, batch_size=8)
    for _ in range(args.epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            with torch.autocast("xla", dtype=torch.bfloat16):
                loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            torch_xla.sync()
    xm.wait_device_ops()


if __name__ == "__main__":
    main()
