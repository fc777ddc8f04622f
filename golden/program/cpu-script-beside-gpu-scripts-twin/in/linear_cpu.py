# Twin of cpu-script-beside-gpu-scripts: the GPU script imports this module (its `Net`), so the
# module is not a program of its own: the GPU script's run reaches it and moves what it builds.
# No TRN804 moves anything here; its own `__main__` run is reported as training on the CPU
# (TRN027).
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


if __name__ == "__main__":
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
    for epoch in range(3):
        for x, y in data:
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), "linear.pth")
