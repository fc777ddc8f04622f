import torch

from splitloss import SplitLoss


def main(loader):
    device = torch.device("cuda")
    embed = torch.nn.Embedding(8, 10).to(device)
    crit = SplitLoss(10, 8).to(device)
    optimizer = torch.optim.SGD(list(embed.parameters()) + list(crit.parameters()), lr=1)
    for prev, x in loader:
        prev, x = prev.to(device), x.to(device)
        loss = crit(embed(prev), x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main([])
