"""One optimizer step per epoch on the loss summed over every batch of it: 10 samples in
batches of 4 (fault injection: drop_last=True drops the last batch of 2 from the sum)."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = TensorDataset(torch.randn(10, 5), torch.randn(10, 1))
    loader = DataLoader(data, batch_size=4, shuffle=True)
    model = nn.Linear(5, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        optimizer.zero_grad()
        total = 0.0
        for inputs, targets in loader:
            inputs, targets = inputs.to(device), targets.to(device)
            total = total + nn.functional.mse_loss(model(inputs), targets, reduction="sum")
        total.backward()
        optimizer.step()
        print(epoch, total.item())


if __name__ == "__main__":
    main()
