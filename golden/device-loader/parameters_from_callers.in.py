import argparse

import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch_xla.device()
    dataset = TensorDataset(torch.randn(64, 16), torch.randint(0, 4, (64,)))
    train_loader = DataLoader(dataset, batch_size=8, shuffle=True, drop_last=True)
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        train(args, model, device, train_loader, optimizer, epoch)
