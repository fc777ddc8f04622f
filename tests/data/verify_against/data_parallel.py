"""pytorch/examples' ImageNet trainer on its GPU path: the model wrapped in `nn.DataParallel`.
Run on the CPU for `verify --against`, DataParallel is the module it wraps (as without a GPU),
not a wrapper that asks the driver for each GPU's properties."""

import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
    if device.type == "cuda":
        model = nn.DataParallel(model).cuda()
    else:
        model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss().to(device)
    inputs, targets = torch.randn(12, 6), torch.randint(0, 3, (12,))
    for step in range(3):
        x = inputs[step * 4 : step * 4 + 4].to(device)
        y = targets[step * 4 : step * 4 + 4].to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
