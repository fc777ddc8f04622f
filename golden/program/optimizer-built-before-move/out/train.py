# Class: an optimizer built over a model's parameters in one method, the model moved to the
# device later in another: on the XLA device `.to()` gives the model new parameters, so the
# optimizer steps the old CPU ones and nothing trains (measured). The tool cannot reorder across
# methods; the verdict names the optimizer as the cause.
# Twin: optimizer-built-before-move-twin (the move is in the same block, and is put first).
import torch
import torch_xla
from torch import nn


class Trainer:
    def __init__(self):
        self.device = torch_xla.device()
        self.model = nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self):
        self.model.to(self.device)
        for _ in range(3):
            loss = self.model(torch.randn(8, 4).to(self.device)).sum()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            torch_xla.sync()


if __name__ == "__main__":
    Trainer().fit()
