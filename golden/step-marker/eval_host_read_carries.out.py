# Twin of eval_host_read_cuts: the marker stays where a device value is carried from one
# iteration to the next (a device accumulator, a sequence rebuilt from itself) or where the host
# read runs on some iterations only.
import torch
import torch_xla


def validation(model, loader, rank):
    device = torch_xla.device()
    total = torch.zeros(2).to(device)
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = model(x, y)
            torch_xla.sync()
            total[0] += loss.item()
            total[1] += len(x)
    return total


def generate(model, idx, steps):
    for _ in range(steps):
        logits = model(idx)
        nxt = torch.argmax(logits[:, -1], dim=-1, keepdim=True)
        idx = torch.cat((idx, nxt), dim=1)
        torch_xla.sync()
        if nxt.item() == 0:
            break
    return idx


def evaluate(model, loader, log_every):
    device = torch_xla.device()
    correct = 0
    with torch.no_grad():
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            hits = (model(x).argmax(1) == y).sum()
            if step % log_every == 0:
                print(hits.item())
            correct += hits
            torch_xla.sync()
    return correct
