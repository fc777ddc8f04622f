# Twin of eval_one_computed_read: these loops keep their cut. A device sum (`total += loss`,
# `loss` computed in the loop) is carried to the next batch; a state fed back from the last
# iteration (`hidden = model(x, hidden)`) is too; and two reads of values the forward pass made
# (`out.cpu()`, `feats.cpu()`) each run a graph over it unless a cut before the first computes
# both at once.
import torch
import torch_xla


def validate(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            total += loss
            torch_xla.sync()
            print(loss.item())
    return total / len(loader)


def stream(model, loader, device):
    hidden = None
    with torch.no_grad():
        for x in loader:
            x = x.to(device)
            out, hidden = model(x, hidden)
            torch_xla.sync()
            print(out.argmax(-1).tolist())


def collect(model, loader, device):
    outputs, features = [], []
    with torch.no_grad():
        for x, labels in loader:
            feats = model.features(x.to(device))
            out = model.head(feats)
            torch_xla.sync()
            outputs.append(out.cpu())
            features.append(feats.cpu())
    return outputs, features
