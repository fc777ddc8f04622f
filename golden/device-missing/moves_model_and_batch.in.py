import torch
import torch.nn.functional as F
from torch import nn, optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return self.fc(x.flatten(1))


def main(loader):
    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(3):
        for batch_idx, (data, target) in enumerate(loader):
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            if batch_idx % 10 == 0:
                print(epoch, loss.item())


if __name__ == "__main__":
    main([])
