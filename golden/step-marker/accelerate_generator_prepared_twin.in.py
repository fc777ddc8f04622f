# Twin of accelerate_generator_prepared: the DataLoader itself is prepared and the generator
# cycles over what prepare made (an MpDeviceLoader on XLA, which cuts at each batch): no marker.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


def cycle(loader):
    while True:
        for data in loader:
            yield data


def train(model, dataset, steps=100):
    accelerator = Accelerator()
    optim = torch.optim.Adam(model.parameters(), lr=1e-4)
    loader = DataLoader(dataset, batch_size=4, shuffle=True, drop_last=True)
    model, optim, loader = accelerator.prepare(model, optim, loader)
    train_loader = cycle(loader)
    for i in range(steps):
        loss = model(next(train_loader))
        accelerator.backward(loss)
        optim.step()
        optim.zero_grad()
