import argparse

import torch
import torch_xla
import yaml
from torch import nn

from losses import loss_registry


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config) as handle:
        config = argparse.Namespace(**yaml.safe_load(handle))
    device = torch_xla.device()
    model = nn.Linear(8, 8).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(100):
        x = torch.randn(4, 8).to(device)
        t = torch.randint(0, 1000, (4,), device=device)
        loss = loss_registry[config.loss](model, x, t)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
