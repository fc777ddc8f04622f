# golden: scale-out=true select=ALL
import torch
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.datasets import mnist
from torchvision.transforms import ToTensor

# Downloaded at import by every process.
train_dataset = mnist.MNIST(root="./MNIST_DATA_train", train=True, download=True, transform=ToTensor())


def evaluation_sets():
    # Two downloads in a row share one wait.
    test_set = datasets.FashionMNIST("./data", train=False, download=True, transform=ToTensor())
    extra_set = datasets.KMNIST("./data", train=False, download=True, transform=ToTensor())
    return test_set, extra_set


def main():
    torch.manual_seed(0)
    train_loader = DataLoader(train_dataset, batch_size=32, shuffle=True, drop_last=True)
    device = "xla"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(2):
        for x, y in train_loader:
            optimizer.zero_grad()
            x = x.view(x.size(0), -1)
            x, y = x.to(device), y.to(device)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
