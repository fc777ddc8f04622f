# Class: a loader whose dataset size is a multiple of its batch size (both decided: a torchvision
# dataset of fixed size and its split, a literal-size TensorDataset or range, and a literal batch
# size or a name assigned only one). No partial last batch exists: no drop_last=True (TRN215),
# no partial-batch report (TRN216). Twin: loaders_partial_batch.in.py.
import torch
import torchvision
from torch.utils.data import DataLoader, TensorDataset

batch_size = 100
model = torch.nn.Linear(784, 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

train_dataset = torchvision.datasets.MNIST(root="data", train=True, download=True)
test_dataset = torchvision.datasets.MNIST(root="data", train=False)
cifar = torchvision.datasets.CIFAR10("data")
features = TensorDataset(torch.randn(1000, 784), torch.randint(0, 10, (1000,)))

train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(dataset=test_dataset, batch_size=batch_size, shuffle=False)
train_cifar = DataLoader(cifar, batch_size=125, shuffle=True)
train_features = DataLoader(features, batch_size=50, shuffle=True)
train_indices = DataLoader(range(512), batch_size=64, shuffle=True)

for loader in (train_loader, train_cifar, train_features, train_indices):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for x, y in test_loader:
        print(model(x).argmax(1).eq(y).sum().item())
