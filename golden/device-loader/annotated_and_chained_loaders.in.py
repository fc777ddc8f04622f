# A loader bound with an annotation, or in a chained assignment, is still only a DataLoader.
import torch
import torch_xla
from torch.utils.data import DataLoader

device = torch_xla.device()
train_loader: DataLoader = DataLoader(train_set, batch_size=32, drop_last=True)
eval_loader = last_loader = DataLoader(eval_set, batch_size=32, drop_last=True)


def train(model, optimizer):
    for x, y in train_loader:
        x = x.to(device)
        y = y.to(device)
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    for x, y in eval_loader:
        x = x.to(device)
        y = y.to(device)
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
