import torch
import torch_xla
from torch.utils.data import DataLoader, TensorDataset


def make_loader(size, lists=False):
    dataset = TensorDataset(torch.randn(size, 4), torch.randn(size, 1))
    if lists:
        # Not a DataLoader: the helper's loader is not certain.
        return [dataset[i : i + 8] for i in range(0, size, 8)]
    return DataLoader(dataset, batch_size=8, drop_last=True)


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in make_loader(64):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
