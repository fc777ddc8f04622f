# Training code is the step loop, a function that steps the optimizer, and what they call.
import torch


def masked_mean(values, labels):
    keep = labels != -100
    return values[keep].mean()


def train_step(model, batch, optimizer):
    logits = model(batch["x"])
    loss = torch.nn.functional.cross_entropy(logits, batch["y"])
    loss.backward()
    optimizer.step()
    return logits[torch.isfinite(logits)].sum()


def train(model, loader, optimizer, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        per_token = torch.nn.functional.cross_entropy(model(x), y, reduction="none")
        loss = masked_mean(per_token, y)
        loss.backward()
        optimizer.step()
        positives = torch.nonzero(y > 0, as_tuple=True)


def summarize(losses):
    # not called from training code: host statistics after the run
    values = torch.tensor(losses)
    return values[values > 0].mean(), torch.unique(values)
