import torch.optim
import torch_xla
from model import Net
from utils import *

device = torch_xla.device()


def main():
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(8, 4).to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
