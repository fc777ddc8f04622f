import torch
import torch.nn.functional as F

from models import TCN


def main():
    device = torch.device("cuda")
    model = TCN(4, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(8, 4, 32).to(device)
        y = torch.randint(0, 2, (8,)).to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "tcn.pt")


if __name__ == "__main__":
    main()
