# Class: a learning-rate scheduler (`torch.optim.lr_scheduler.StepLR(optimizer, ...)`) stepped
# once an epoch is no optimizer: the training step is the batch loop's `optimizer.step()` in the
# function the epoch loop calls, not the scheduler's `step()` beside it.
import torch


def fit(loader, model, loss_fn, optimizer, scheduler, n_epochs, device, start_epoch=0):
    for epoch in range(0, start_epoch):
        scheduler.step()  # resuming: the schedule catches up
    for epoch in range(start_epoch, n_epochs):
        scheduler.step()
        train_epoch(loader, model, loss_fn, optimizer, device)


def train_epoch(loader, model, loss_fn, optimizer, device):
    model.train()
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(data), target)
        loss.backward()
        optimizer.step()
