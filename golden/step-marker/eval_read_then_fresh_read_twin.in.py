# Twin of eval_read_then_derived_read: the value read second is computed after the first read
# from a fresh draw, not from the forward pass the first read ran; or it is the first read's own
# host result, read per sample (minGPT's adder: `correct = (pred == gt).cpu()`, then
# `int(correct[i])`); or the forward pass it reruns is of a batch a nested training loop left,
# which its own cut computed. One graph a read: a cut before the first read would only add an
# execution. None of these evaluation loops gets a cut (the nested training loop has its own).
import torch


def sample(model, loader, device):
    model.eval()
    with torch.no_grad():
        for data in loader:
            img, _ = data
            img = img.to(device)
            recon = model(img)
            print(recon.mean().item())
            z = torch.randn(16, 8).to(device)
            fresh = model.decode(z)
            print(fresh.std().item())


def check(model, loader, device):
    results = []
    for x, y in loader:
        x = x.to(device)
        pred = model(x).argmax(-1)
        gt = y.to(device).sum(1)
        correct = (pred == gt).cpu()
        for i in range(x.size(0)):
            results.append(int(correct[i]))
    return results


def train_and_sample(model, optimizer, loader, epochs, device):
    for epoch in range(epochs):
        for x, _ in loader:
            x = x.to(device).view(-1, 784)
            loss = model(x)[0].sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            z = torch.randn(16, 8).to(device)
            out = model.decode(z)
            print(out.sum().item())
            rec, _ = model(x)
            print(rec.sum().item())
