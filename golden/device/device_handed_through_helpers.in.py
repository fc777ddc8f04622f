# Class: a "cuda" handed to the module's own functions and classes, any number of calls deep
# (train → mixing_noise → make_noise; a class that keeps it in `self.device`), each reading it
# only as a device: the training device, rewritten (TRN002), not left for a person (TRN006).
# Twin (device_handed_through_helpers_twin): the deepest helper also formats it into a message.
import random

import torch


def make_noise(batch, dim, device):
    return torch.randn(batch, dim, device=device)


def mixing_noise(batch, dim, prob, device):
    if random.random() < prob:
        return [make_noise(batch, dim, device), make_noise(batch, dim, device)]
    return [make_noise(batch, dim, device)]


class Augment:
    def __init__(self, p, device):
        self.p = p
        self.device = device

    def __call__(self, x):
        return x + torch.randn(x.shape, device=self.device) * self.p


def train(model, optimizer, steps, device):
    augment = Augment(0.6, device)
    for _ in range(steps):
        noise = mixing_noise(8, 4, 0.9, device)
        loss = model(augment(noise[0])).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    device = "cuda"
    model = torch.nn.Linear(4, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, optimizer, 10, device)
