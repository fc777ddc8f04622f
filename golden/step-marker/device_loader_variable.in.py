import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader
from tqdm import tqdm


def train(model, dataset, optimizer, device):
    train_loader = DataLoader(dataset, batch_size=8, drop_last=True)
    train_loader = pl.MpDeviceLoader(train_loader, device)
    for epoch in range(3):
        for x, y in tqdm(train_loader):
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


class Trainer:
    def __init__(self, loader, device):
        self.loader = pl.MpDeviceLoader(loader, device)

    def evaluate(self, model):
        for x, y in self.loader:
            y = y.to(torch_xla.device())
            print(torch.nn.functional.mse_loss(model(x), y))
