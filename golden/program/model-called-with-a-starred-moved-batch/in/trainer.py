# Class: the step calls the model with a starred batch (`model(*data)`) whose items were each
# moved to the device by a generator (`data = tuple(d.cuda() for d in data)`): every input is on
# the device, however many there are.
import torch


def train_epoch(loader, model, loss_fn, optimizer, cuda):
    model.train()
    for data, target in loader:
        if not type(data) in (tuple, list):
            data = (data,)
        if cuda:
            data = tuple(d.cuda() for d in data)
            target = target.cuda()
        optimizer.zero_grad()
        loss = loss_fn(model(*data), target)
        loss.backward()
        optimizer.step()
