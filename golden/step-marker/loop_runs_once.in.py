# Class: a loop whose body ends in `break` runs once (the first batch of an evaluation loader,
# then the work after the loop): no loop of batches to cut, and a marker at the end of its body
# would follow the `break` and never run. No marker.
import torch


def evaluate(generator, eval_loader, device):
    generator.eval()
    with torch.no_grad():
        for x, y in eval_loader:
            x = x.to(device)
            y = y.to(device)
            x = x[:1]
            y = y[:1]
            break
        y_hat = generator(x)
    return y_hat.cpu(), y.cpu()
