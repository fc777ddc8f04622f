# Twin of step_function_called_from_loop: no cut goes into these step functions. `fit_once` is
# called once, not from a loop (one step, run by the read after it); the loop that calls
# `train_cut` cuts the graph itself; the loop that calls `train_loader` iterates an
# MpDeviceLoader, which cuts at every batch; `train_epoch` holds its own batch loop, which gets
# the cut as a training loop.
import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.distributed.parallel_loader as pl

device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
features = torch.randn(100, 16).to(device)
labels = torch.randint(0, 4, (100,)).to(device)
batches = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]


def fit_once():
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features), labels)
    loss.backward()
    optimizer.step()
    print(loss.item())


def train_cut():
    optimizer.zero_grad()
    F.cross_entropy(model(features), labels).backward()
    optimizer.step()


def train_batch(x, y):
    optimizer.zero_grad()
    F.cross_entropy(model(x), y).backward()
    optimizer.step()


def train_epoch(loader):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        optimizer.step()
        torch_xla.sync()


fit_once()
for epoch in range(10):
    train_cut()
    torch_xla.sync()
for x, y in pl.MpDeviceLoader(batches, device):
    train_batch(x, y)
for epoch in range(3):
    train_epoch(batches)
