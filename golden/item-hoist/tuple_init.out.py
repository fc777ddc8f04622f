import torch_xla


def train(model, loader, optimizer, loss_fn):
    total_loss, correct, seen = 0.0, 0, 0
    for step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = loss_fn(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        total_loss += loss.detach()
        correct += (logits.argmax(dim=-1) == y).sum()
        seen += y.size(0)
    total_loss = float(total_loss)
    correct = int(correct)
    return total_loss / len(loader), correct / seen
