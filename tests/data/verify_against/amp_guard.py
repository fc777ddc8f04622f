"""A classifier whose loss depends on a device guard: label smoothing where the GPU path runs
(fault injection: flip the guard into the other branch)."""

import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    model = model.to(device)
    if device.type == "cuda":
        criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    else:
        criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(4):
        inputs = torch.randn(8, 6, device=device)
        labels = torch.randint(0, 3, (8,), device=device)
        loss = criterion(model(inputs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
