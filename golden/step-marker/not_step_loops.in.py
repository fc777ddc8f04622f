import torch


def schedule(optimizer, scheduler, epochs, names, model):
    for epoch in range(epochs):
        scheduler.step()
    for name in names:
        print(name, getattr(model, name))
    for param in model.parameters():
        param.requires_grad_(False)
