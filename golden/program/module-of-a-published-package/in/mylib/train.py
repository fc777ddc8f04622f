import torch
from torch import nn

from mylib.sampling import Sampler


def main():
    net = nn.Sequential(nn.Embedding(16, 8), nn.Flatten(), nn.LazyLinear(16)).cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(100):
        tokens = torch.randint(0, 16, (4, 8)).cuda()
        loss = net(tokens).logsumexp(dim=-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(Sampler(net).generate(tokens[:, :2], 4))


if __name__ == "__main__":
    main()
