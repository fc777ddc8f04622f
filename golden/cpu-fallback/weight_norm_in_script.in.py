# A training script that builds its weight-normed layers outside the step, in a builder and in
# `main()`: the script trains what it builds, so each call is reported (TRN055) though neither
# function is model code. The twin (weight_norm_in_inference_script) trains nothing.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm


def build(width):
    return nn.Sequential(weight_norm(nn.Linear(4, width)), nn.ReLU(), nn.Linear(width, 2))


def train(model, loader, optimizer):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    model = build(16)
    model.append(weight_norm(nn.Linear(2, 2)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 4), torch.randint(0, 2, (8,)))]
    train(model, loader, optimizer)


if __name__ == "__main__":
    main()
