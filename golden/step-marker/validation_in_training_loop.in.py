# A validation loop nested in the training loop calls the model on every batch: it keeps its
# own cut (the per-sample loop inside it does not get one).
import torch


def train(model, loader, val_loader, optimizer, device, eval_every):
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % eval_every == 0:
            with torch.no_grad():
                for xv, yv in val_loader:
                    xv, yv = xv.to(device), yv.to(device)
                    hits = model(xv).argmax(1) == yv
                    for i in range(yv.size(0)):
                        print(int(yv[i]), bool(hits[i]))
