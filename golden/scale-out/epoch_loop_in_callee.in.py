# golden: scale-out=true select=TRN16,TRN141
import torch
from torch.utils.data import DataLoader, TensorDataset


def fit(model, loader, optimizer, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    loader = DataLoader(data, 8)
    model = torch.nn.Linear(4, 1)
    fit(model, loader, torch.optim.Adam(model.parameters()), epochs=3)


if __name__ == "__main__":
    main()
