# Twin of loaders_exact_multiple.in.py: a batch size that does not divide the decided dataset
# size (MNIST's 60000 in batches of 128), a dataset whose size the tool cannot know (a folder of
# images, a split given by a variable), or a batch size that is not decided (an argument): the
# last batch may be partial, so the training loaders still get drop_last=True.
import argparse

import torch
import torchvision
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--batch-size", type=int, default=100)
parser.add_argument("--train", action="store_true")
args = parser.parse_args()

model = torch.nn.Linear(784, 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

mnist = torchvision.datasets.MNIST(root="data", train=True, download=True)
folder = torchvision.datasets.ImageFolder("images")
chosen = torchvision.datasets.MNIST(root="data", train=args.train)

train_mnist = DataLoader(mnist, batch_size=128, shuffle=True)
train_folder = DataLoader(folder, batch_size=100, shuffle=True)
train_chosen = DataLoader(chosen, batch_size=100, shuffle=True)
train_flag = DataLoader(mnist, batch_size=args.batch_size, shuffle=True)

for loader in (train_mnist, train_folder, train_chosen, train_flag):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
