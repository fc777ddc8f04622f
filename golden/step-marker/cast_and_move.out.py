import torch
import torch_xla


def evaluate(model, loader, device):
    model.eval()
    total = torch.zeros((), device=device)
    with torch.no_grad():
        for images, labels in loader:
            images = images.to(device, dtype=torch.bfloat16)
            total += (model(images).argmax(1) == labels.to(device)).sum()
            torch_xla.sync()
    return total
