# Twin of cpu-self-test-seeds-cuda: the `__main__` self-test moves its model and inputs to a
# device (the tool makes it the accelerator), so its step trains on XLA: it keeps its XLA seed
# and its graph cut.
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

    device = torch.device("cuda")
    embed = torch.nn.Embedding(8, 10).to(device)
    crit = SplitLoss(10, 8).to(device)
    optimizer = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for _ in range(10):
        prev = (torch.rand(100, device=device) * 7.99).long()
        x = (torch.rand(100, device=device) * 7.99).long()
        loss = crit(embed(prev), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
