# golden: scale-out=true select=TRN16,TRN141
import torch
from data import make_loader


def main():
    torch.manual_seed(0)
    loader = make_loader("train")
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


if __name__ == "__main__":
    main()
