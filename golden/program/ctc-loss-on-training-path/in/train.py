import torch
import torch.nn as nn

from evaluate import validation
from losses import CTCCriterion


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Flatten(2), nn.Linear(32, 10)).to(device)
    criterion = CTCCriterion()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(100):
        images = torch.randn(8, 24, 4, 8).to(device)
        targets = torch.randint(1, 10, (8, 5)).to(device)
        frames, lengths = torch.full((8,), 24), torch.full((8,), 5)
        loss = criterion(model(images), targets, frames, lengths)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(validation(model, criterion, [], device))
    torch.save(model.state_dict(), "ocr.pt")


if __name__ == "__main__":
    main()
