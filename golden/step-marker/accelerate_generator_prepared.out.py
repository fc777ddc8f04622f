# Class: an accelerate loop whose loader is a generator (`cycle(DataLoader(...))`) handed to
# `accelerator.prepare` with the model. prepare wraps DataLoaders only and hands an iterator back
# as it is, so no MpDeviceLoader cuts the graph at each batch, and accelerate's optimizer step
# does not cut either: the graph grew by about 1,200 IR lines a step (x-transformers' enwik8
# trainer, measured by a first-sight reviewer). The step gets its cut (TRN101).
import torch
import torch_xla
from accelerate import Accelerator
from torch.utils.data import DataLoader


def cycle(loader):
    while True:
        for data in loader:
            yield data


def train(model, dataset, steps=100):
    accelerator = Accelerator()
    optim = torch.optim.Adam(model.parameters(), lr=1e-4)
    train_loader = cycle(DataLoader(dataset, batch_size=4, shuffle=True, drop_last=True))
    model, optim, train_loader = accelerator.prepare(model, optim, train_loader)
    for i in range(steps):
        loss = model(next(train_loader))
        accelerator.backward(loss)
        optim.step()
        torch_xla.sync()
        optim.zero_grad()
