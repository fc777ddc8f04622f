# Class: a self-test in the `__main__` block of a library module other entry points import
# (AWD-LSTM's splitcross.py), whose own run builds every tensor on the CPU; it seeds CUDA where
# CUDA is there (`torch.cuda.is_available()`, `torch.cuda.manual_seed`), which places nothing.
# Run as a script, it trains on the CPU, as the verdict says: no XLA seed, no graph cut, no
# `import torch_xla`. Twin: cpu-self-test-seeds-cuda-twin.
import torch
import torch.nn as nn


class SplitLoss(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, y, x):
        return nn.functional.cross_entropy(self.proj(y), x)


if __name__ == "__main__":
    torch.manual_seed(42)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(42)

    embed = torch.nn.Embedding(8, 10)
    crit = SplitLoss(10, 8)
    optimizer = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for _ in range(10):
        prev = (torch.rand(100) * 7.99).long()
        x = (torch.rand(100) * 7.99).long()
        loss = crit(embed(prev), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
