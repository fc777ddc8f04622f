import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    for data, target in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()


def main():
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, [], optimizer)


if __name__ == "__main__":
    main()
