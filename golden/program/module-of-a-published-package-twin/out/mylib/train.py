import torch
import torch_xla
from torch import nn

from mylib.sampling import Sampler


def main():
    net = nn.Sequential(nn.Embedding(16, 8), nn.Flatten(), nn.LazyLinear(16)).to(torch_xla.device())
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    device = torch_xla.device()
    for step in range(100):
        tokens = torch.randint(0, 16, (4, 8)).to(device)
        loss = net(tokens).logsumexp(dim=-1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    print(Sampler(net).generate(tokens[:, :2], 4))


if __name__ == "__main__":
    main()
