# Twin of lr-scheduler-stepped-each-epoch: the optimizer is a package's (`mylib.optim.Lamb`,
# a class under an `optim` module given the parameters), stepped in the batch loop: it is the
# optimizer whose step the evaluator follows, as before.
import torch
import torch_xla


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
        torch_xla.sync()
