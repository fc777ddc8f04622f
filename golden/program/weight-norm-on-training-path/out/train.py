import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.core.xla_model as xm

from models import TCN


def main():
    device = torch_xla.device()
    model = TCN(4, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(10):
        x = torch.randn(8, 4, 32).to(device)
        y = torch.randint(0, 2, (8,)).to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    torch_xla.sync()
    xm.save(model.state_dict(), "tcn.pt")


if __name__ == "__main__":
    main()
