# An evaluation or sampling loop that reads on the host, every iteration, a value it computed in
# that iteration (`loss.item()`, `c[i].item()`) runs its graph there, and nothing it made on the
# device outlives the iteration: no marker is added (twin: eval_host_read_carries).
import math

import torch
import torch_xla


@torch.no_grad()
def estimate_loss(model, get_batch, eval_iters):
    model.eval()
    losses = torch.zeros(eval_iters)
    for k in range(eval_iters):
        x, y = get_batch("val")
        logits, loss = model(x, y)
        losses[k] = loss.item()
    return losses.mean()


def psnr(model, criterion, loader):
    device = torch_xla.device()
    avg = 0
    with torch.no_grad():
        for x, target in loader:
            x, target = x.to(device), target.to(device)
            mse = criterion(model(x), target)
            avg += 10 * math.log10(1 / mse.item())
    return avg / len(loader)


def per_class(net, loader, classes):
    device = torch_xla.device()
    class_correct = list(0.0 for _ in classes)
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            _, predicted = torch.max(net(images), 1)
            c = (predicted == labels).squeeze()
            for i in range(4):
                class_correct[labels[i]] += c[i].item()
    return class_correct

