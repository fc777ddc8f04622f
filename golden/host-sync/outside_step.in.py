# Outside any step loop: setup, evaluation summaries, host-only loops. Nothing is reported.
import numpy as np
import torch


def summarize(model, losses):
    history = torch.tensor(losses)
    print(history, f"{history.mean()}")
    if torch.isnan(history).any():
        print("NaN in history")
    weights = model.fc.weight.detach().cpu().numpy()
    return np.mean(weights), history.tolist()


def preprocess(batches):
    out = []
    for batch in batches:
        tensor = torch.as_tensor(batch)
        if tensor.sum() > 0:
            out.append(tensor.numpy())
        print(tensor)
    return out


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.to("xla")), y.to("xla"))
        loss.backward()
        optimizer.step()
        host_labels = y.cpu()
        counts = np.bincount(y.numpy())
