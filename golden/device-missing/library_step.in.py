"""A library's training loop: its callers (not given) place the model."""
import torch


def fit(loader, hidden=16):
    model = torch.nn.Linear(4, hidden)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return model
