# The batch loop gets the cut; its per-sample loop, which reads values of the batch, does not.
# (With `c[i].item()` there the read would run each batch's graph: eval_host_read_cuts.)
import torch


@torch.no_grad()
def evaluate(model, loader, device, classes):
    class_correct = [0.0] * classes
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        outputs = model(images)
        c = (outputs.argmax(1) == labels).squeeze()
        for i in range(labels.size(0)):
            label = labels[i]
            class_correct[label] += c[i]
    return class_correct
