# Twin of device_handed_through_helpers: the deepest helper also formats the device into a
# message, a use other than as a device: the "cuda" stays, for a person (TRN006).
import random

import torch


def make_noise(batch, dim, device):
    print(f"noise on {device}")
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
