# golden: select=TRN0,TRN10,TRN30,TRN31
"""A typical CUDA AMP training script."""
import argparse

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader


def train(model, loader, optimizer, scaler, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    torch.backends.cudnn.benchmark = True
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = [(torch.randn(16), 0)] * 32
    loader = DataLoader(data, batch_size=8, pin_memory=True)
    for _ in range(args.epochs):
        scaler = GradScaler()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            with autocast():
                loss = nn.functional.cross_entropy(model(x), y)
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
