import torch

from attack import adversarial_loss
from models import WideNet


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = WideNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))) for _ in range(4)]
    for epoch in range(2):
        model.train()
        for x, y in data:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = adversarial_loss(model, x, y)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
