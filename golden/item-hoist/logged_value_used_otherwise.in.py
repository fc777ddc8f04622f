# A value that is logged and also used otherwise (kept in a history, compared) stays where it
# is, and is reported; the logging that reads it is not moved.
import torch


def train(model, loader, optimizer, history):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        lossf = loss.item()
        print(f"loss {lossf:.4f}")
        history.append(lossf)
        gnorm = loss.detach().norm().item()
        print(f"grad norm {gnorm:.4f}")
        if gnorm > 100.0:
            break
