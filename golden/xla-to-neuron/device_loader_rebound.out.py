# golden: target=neuron
"""The device loader rebinds the DataLoader's own name, as many real scripts write it, and its
length is read: the assignment goes, the loop moves each batch, len() is the DataLoader's."""
import torch
from torch.utils.data import DataLoader


def run(model, dataset, optimizer, use_xla):
    device = torch.device("neuron")
    train_loader = DataLoader(dataset, batch_size=8, drop_last=True)
    print("batches:", len(train_loader))
    steps = len(train_loader)
    for step, (x, y) in enumerate(train_loader):
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return steps
