# Twin of optimizer-built-before-move: the move follows the optimizer in the same block, so it
# is put first (TRN053), and the entry point runs.
import torch
import torch_xla
from torch import nn


class Trainer:
    def __init__(self):
        self.device = torch_xla.device()
        self.model = nn.Linear(4, 2)
        self.model.to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self):
        for _ in range(3):
            loss = self.model(torch.randn(8, 4).to(self.device)).sum()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            torch_xla.sync()


if __name__ == "__main__":
    Trainer().fit()
