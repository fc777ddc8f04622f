# golden: select=TRN12,TRN40,TRN10
# item-hoist owns `.item()` in the step loop's own body; host-sync reports the other host reads and
# nothing that item-hoist moved into its interval guard.
import torch


def train(model, loader, optimizer, criterion):
    running = 0.0
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        logits = model(x.to("xla"))
        loss = criterion(logits, y.to("xla"))
        loss.backward()
        optimizer.step()
        running += loss.item()
        print(f"step {step} loss {loss.item():.4f} logits {logits.mean()}")
        if loss.item() > 100.0:
            break
        if torch.isnan(loss):
            break
        for p in model.parameters():
            if p.grad.abs().max().item() > 1e3:
                print("large gradient")
    return running
