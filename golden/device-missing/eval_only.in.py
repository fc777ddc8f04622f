import torch


def main(loader):
    model = torch.nn.Linear(4, 2)
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            print(torch.nn.functional.mse_loss(model(x), y).item())


if __name__ == "__main__":
    main([])
