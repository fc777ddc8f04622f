"""A small CNN trained on synthetic MNIST-shaped images, written the way GPU scripts are today.

Demonstrates what trncodemod has to deal with in a classic `pytorch/examples` MNIST script:
a `"cuda" if torch.cuda.is_available() else "cpu"` device choice, `.to(device)` of every batch,
NumPy float64 inputs fed through `torch.from_numpy`, `running_loss += loss.item()` on every
step, a `loss.item()` print every `--log-interval` steps, an eval loop that reads
`correct += pred.eq(target).sum().item()` per batch, and `torch.save(model.state_dict(), ...)`.

Runs on CPU without downloads:  python examples/cnn_mnist.py --steps 3
"""

import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, 1)
        self.conv2 = nn.Conv2d(16, 32, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(4608, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def synthetic_mnist(num_samples, seed):
    """Images in [0, 1] whose label is decided by which of ten stripes is brightest (float64)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, size=num_samples)
    images = rng.random((num_samples, 1, 28, 28)) * 0.3
    for i, label in enumerate(labels):
        images[i, 0, 2 * label + 4 : 2 * label + 7, 4:24] += 0.7
    images = (images - 0.1307) / 0.3081
    return TensorDataset(torch.from_numpy(images), torch.from_numpy(labels))


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    running_loss = 0.0
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data.float())
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if batch_idx % args.log_interval == 0:
            print(
                f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}]"
                f"\tLoss: {loss.item():.6f}"
            )
    return running_loss / len(train_loader)


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data.float())
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    accuracy = 100.0 * correct / len(test_loader.dataset)
    print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {accuracy:.0f}%")
    return accuracy


def main():
    parser = argparse.ArgumentParser(description="CNN on synthetic MNIST-shaped data")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--test-batch-size", type=int, default=128)
    parser.add_argument("--steps", type=int, default=20, help="training batches per epoch")
    parser.add_argument("--test-batches", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.7)
    parser.add_argument("--log-interval", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="folder for the checkpoint (default: temp)")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_kwargs = {"batch_size": args.batch_size, "shuffle": True}
    test_kwargs = {"batch_size": args.test_batch_size}
    if use_cuda:
        cuda_kwargs = {"num_workers": 1, "pin_memory": True}
        train_kwargs.update(cuda_kwargs)
        test_kwargs.update(cuda_kwargs)

    train_set = synthetic_mnist(args.steps * args.batch_size, args.seed)
    test_set = synthetic_mnist(args.test_batches * args.test_batch_size, args.seed + 1)
    train_loader = DataLoader(train_set, **train_kwargs)
    test_loader = DataLoader(test_set, **test_kwargs)

    model = Net().to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        average = train(args, model, device, train_loader, optimizer, epoch)
        print(f"Epoch {epoch}: average training loss {average:.4f}")
        test(model, device, test_loader)
        scheduler.step()

    out = args.out or tempfile.mkdtemp(prefix="cnn_mnist_")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "mnist_cnn.pt")
    torch.save(model.state_dict(), path)
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
