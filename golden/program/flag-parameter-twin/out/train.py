import argparse

import torch
import torch.distributed as dist
import torch_xla


class AverageMeter:
    def __init__(self, name, use_accel):
        self.name = name
        self.use_accel = use_accel
        self.sum = 0.0
        self.count = 0

    def all_reduce(self):
        if self.use_accel:
            device = torch_xla.device()
        else:
            device = torch.device("cpu")
        total = torch.tensor([self.sum, self.count], device=device)
        dist.all_reduce(total)


def train(loader, model, optimizer, args):
    use_accel = not args.no_accel
    losses = AverageMeter("Loss", use_accel)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        losses.sum += loss.item()
    losses.all_reduce()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-accel", action="store_true")
    args = parser.parse_args()
    model = torch.nn.Linear(4, 1)
    train([], model, torch.optim.SGD(model.parameters(), lr=0.1), args)
