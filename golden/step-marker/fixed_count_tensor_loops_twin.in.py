# Twin of fixed_count_tensor_loops: a counted loop that takes a batch every iteration and runs
# the model on it is an evaluation loop, whatever it counts with, and keeps its cut; so does a
# loop over a list of batches that moves each one, outside any collate function or dataset; and
# a sampling loop in a model method that `forward` does not call.
import torch


@torch.no_grad()
def estimate_loss(model, batches, eval_iters, device):
    total = torch.zeros((), device=device)
    for _ in range(eval_iters):
        x, y = next(batches)
        total += torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device)).sum()
    return total / eval_iters


@torch.no_grad()
def evaluate(model, prepared, device):
    correct = torch.zeros((), device=device)
    for images, labels in prepared:
        images, labels = images.to(device), labels.to(device)
        correct += (model(images).argmax(1) == labels).sum()
    return correct


class Diffusion(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, t):
        return (self.model(x, t) - x).pow(2).mean()

    @torch.no_grad()
    def sample(self, img, steps):
        for t in reversed(range(steps)):
            img = self.model(img, t)
        return img
