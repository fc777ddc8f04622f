# Twin of submodule-moved-with-parent: a module attached after the move is not moved by it
# (`model.head = ...` after `model.to(device)`), so the step's call of it runs on the CPU.
import torch
import torch.nn as nn
import torch_xla


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 4), nn.ReLU())

    def forward(self, x):
        f = self.encoder
        return self.head(f(x))


def main(device):
    model = Net().to(device)
    model.head = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model.forward(torch.randn(2, 4).to(device)).sum()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main(torch_xla.device())
