import torch
import torch_xla

from splitloss import SplitLoss


def main(loader):
    device = torch_xla.device()
    embed = torch.nn.Embedding(8, 10).to(device)
    crit = SplitLoss(10, 8).to(device)
    optimizer = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for prev, x in loader:
        prev, x = prev.to(device), x.to(device)
        loss = crit(embed(prev), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main([])
