# The pytorch/examples mnist shape: the availability check decides the device, the user's
# --no-cuda opt-out is kept. Runs as it is (random data), for the XLA lane.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


def train(args, model, device, loader, optimizer):
    model.train()
    for step, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.nll_loss(F.log_softmax(model(data), dim=1), target)
        loss.backward()
        optimizer.step()
        if step % args.log_interval == 0:
            print(f"step {step} loss {loss.item():.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true", default=False)
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args()
    use_cuda = not args.no_cuda
    device = torch.device("xla" if use_cuda else "cpu")
    data = TensorDataset(torch.randn(640, 64), torch.randint(0, 10, (640,)))
    loader = DataLoader(data, batch_size=32, drop_last=True)
    model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    train(args, model, device, loader, optimizer)


if __name__ == "__main__":
    main()
