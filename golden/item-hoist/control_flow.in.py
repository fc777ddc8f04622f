# Values the step itself needs on the host: reported, never moved.
import torch


def train(model, loader, optimizer, scheduler, val_loss_fn):
    best = float("inf")
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = model(x.to("xla"), y.to("xla"))
        loss.backward()
        optimizer.step()
        if loss.item() > 100.0:
            print("loss exploded")
        val = val_loss_fn(model).item()
        scheduler.step(val)
        current = loss.item()
        if current < best:
            best = current
            torch.save(model.state_dict(), "best.pt")
