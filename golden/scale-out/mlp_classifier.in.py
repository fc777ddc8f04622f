# golden: scale-out=true select=ALL
import os
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 2
BATCH_SIZE = 16
FEATURES = 64

# A synthetic classification set, made once at import.
generator = torch.Generator().manual_seed(0)
inputs = torch.randn(256, 8, 8, generator=generator)
labels = torch.randint(0, 10, (256,), generator=generator)
train_set = TensorDataset(inputs, labels)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, 32), nn.ReLU(), nn.Linear(32, 10))

    def forward(self, x):
        return torch.log_softmax(self.layers(x), dim=1)


def main():
    train_loader = DataLoader(train_set, batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
    torch.manual_seed(0)
    device = "cpu"
    model = Classifier().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = nn.NLLLoss()

    print("training")
    model.train()
    for epoch in range(EPOCHS):
        started = time.time()
        for step, (x, y) in enumerate(train_loader):
            optimizer.zero_grad()
            x = x.view(x.size(0), -1)
            x = x.to(device)
            y = y.to(device)
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
        print("epoch", epoch, "took", time.time() - started)

    print("final loss", loss.detach().to("cpu"))
    os.makedirs("checkpoints", exist_ok=True)
    torch.save({"state_dict": model.state_dict()}, "checkpoints/classifier.pt")


if __name__ == "__main__":
    main()
