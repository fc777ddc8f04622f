# Class: a loop whose body ends in `break` runs once. Twin: the `break` is conditional (the loop
# stops after a number of batches), so every batch runs the model and the loop gets its cut.
import torch


def evaluate(generator, eval_loader, device, batches):
    generator.eval()
    outputs = []
    with torch.no_grad():
        for index, (x, y) in enumerate(eval_loader):
            x = x.to(device)
            outputs.append(generator(x).sum())
            if index == batches:
                break
    return torch.stack(outputs).cpu()
