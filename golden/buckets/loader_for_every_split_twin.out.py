# Twin of loader_for_every_split: a loader built for training alone, shuffled with a literal,
# and one shuffled unless a sampler is given (`shuffle=(train_sampler is None)`, the DDP
# pattern), get drop_last=True.
import torch
from torch.utils.data import DataLoader


def train(model, optimizer, dataset, batch_size, epochs, train_sampler=None):
    data_loader = DataLoader(dataset=dataset, batch_size=batch_size, shuffle=True, drop_last=True)
    train_loader = DataLoader(dataset, batch_size=batch_size, shuffle=(train_sampler is None), drop_last=True)
    for epoch in range(epochs):
        for batch in train_loader:
            loss = model(batch).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        for batch in data_loader:
            loss = model(batch).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
