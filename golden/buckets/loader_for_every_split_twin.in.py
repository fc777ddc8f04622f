# Twin of loader_for_every_split: a loader built for training alone, shuffled with a literal,
# gets drop_last=True.
import torch
from torch.utils.data import DataLoader


def train(model, optimizer, dataset, batch_size, epochs):
    data_loader = DataLoader(dataset=dataset, batch_size=batch_size, shuffle=True)
    for epoch in range(epochs):
        for batch in data_loader:
            loss = model(batch).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
