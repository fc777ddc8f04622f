# golden: scale-out=true select=TRN16,TRN141
import torch


def get_batch():
    return torch.randn(8, 4), torch.randn(8, 1)


def main():
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step = 0
    while step < 10:
        x, y = get_batch()
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        step += 1


if __name__ == "__main__":
    main()
