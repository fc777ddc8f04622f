import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset


def make_loader(size):
    dataset = TensorDataset(torch.randn(size, 4), torch.randn(size, 1))
    loader = DataLoader(dataset, batch_size=8, drop_last=True)
    return loader


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = make_loader(64)
    for x, y in pl.MpDeviceLoader(train_loader, device):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
