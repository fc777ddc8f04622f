# Class: a module held by another (`self.encoder = nn.Sequential(...)` built in `__init__`) and
# called in the step through a name of its own (`f = self.encoder`). `model.to(device)` moves
# every module the model holds, so it runs on the accelerator; the evaluator once judged the
# held module "built on the CPU, never moved" (a false "does not" and TRN027 blocker, seen on a
# self-supervised trainer whose forward calls `f, h = self.encoder, self.predictor`).
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(4, 4)
        self.encoder = nn.Sequential(self.backbone, nn.ReLU())

    def forward(self, x):
        f = self.encoder
        return f(x)


def main(device):
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(10):
        loss = model.forward(torch.randn(2, 4).to(device)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main(torch.device("cuda"))
