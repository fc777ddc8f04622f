# golden: target=neuron
"""MpDeviceLoader, assigned and iterated through enumerate, and iterated directly in the eval
loop: the plain DataLoader, and each batch moved at the top of the loop."""
import torch


def run(model, train_loader, eval_loader, optimizer, loss_fn):
    device = torch.device("neuron")
    model.to(device)
    train_device_loader = train_loader
    for epoch in range(2):
        for idx, (data, target) in enumerate(train_device_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(data), target)
            loss.backward()
            optimizer.step()
    correct = 0
    with torch.no_grad():
        for data, target in eval_loader:
            data, target = data.to(device), target.to(device)
            correct += model(data).argmax(1).eq(target).sum()
    return correct
