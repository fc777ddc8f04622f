import argparse

import torch
import torch.nn as nn

from pkg.config import update_config


def load_config():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--lr", type=float, default=0.1)
    config = parser.parse_args()
    return update_config(config)


def main():
    config = load_config()
    device = torch.device(config.device)
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=config.lr)
    for step in range(10):
        x = torch.randn(8, 4).to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
