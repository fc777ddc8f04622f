# Python needs the truth value of a device tensor: `if`, `while`, `assert`, `bool()`, `not`.
import torch


def train(model, loader, optimizer, criterion, best):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x.to("xla")), y.to("xla"))
        loss.backward()
        optimizer.step()
        if torch.isnan(loss):
            break
        assert torch.isfinite(loss).all(), "diverged"
        improved = bool(loss < best)
        if not torch.equal(loss, loss) or loss > 100:
            continue
        if step % 100 == 0 and torch.isnan(loss).any():
            print("NaN at", step)
        if loss is None or step > 10:
            pass
        scale = 0.5 if loss > 1 else 1.0
