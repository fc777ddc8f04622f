import torch
import torch.nn as nn

from models import WideNet


def pgd(model, x, y, steps=3):
    x_pgd = x.clone().requires_grad_(True)
    for _ in range(steps):
        opt = torch.optim.SGD([x_pgd], lr=1e-3)
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(x_pgd), y)
        loss.backward()
        x_pgd = (x_pgd.detach() + 0.01 * x_pgd.grad.sign()).requires_grad_(True)
    return (model(x_pgd).argmax(1) != y).float().sum()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = WideNet().to(device)
    model.eval()
    errors = 0
    for x, y in [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,)))] * 2:
        errors += pgd(model, x.to(device), y.to(device))
    print(errors)


if __name__ == "__main__":
    main()
