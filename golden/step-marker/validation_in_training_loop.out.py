# A validation loop nested in the training loop calls the model on every batch and carries a
# device sum: it keeps its own cut, before the per-sample loop that reads each hit on the host
# (the per-sample loop does not get one).
import torch
import torch_xla


def train(model, loader, val_loader, optimizer, device, eval_every):
    correct = torch.zeros((), device=device)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
        if step % eval_every == 0:
            with torch.no_grad():
                for xv, yv in val_loader:
                    xv, yv = xv.to(device), yv.to(device)
                    hits = model(xv).argmax(1) == yv
                    correct += hits.sum()
                    torch_xla.sync()
                    for i in range(yv.size(0)):
                        print(int(yv[i]), bool(hits[i]))
