import torch.optim
from model import Net
from utils import *

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main():
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(8, 4).to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
