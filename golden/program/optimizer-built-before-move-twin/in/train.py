# Twin of optimizer-built-before-move: the move follows the optimizer in the same block, so it
# is put first (TRN053), and the entry point runs.
import torch
from torch import nn


class Trainer:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.model.to(self.device)

    def fit(self):
        for _ in range(3):
            loss = self.model(torch.randn(8, 4).to(self.device)).sum()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


if __name__ == "__main__":
    Trainer().fit()
