# Whole tensors moved to the device that no step slices at a Python-int offset: indexed with a
# tensor of indices (one shape, the indices are data), used whole, or batches a loader yields.
# The moves are ported as they are (TRN001); nothing keeps them on the host.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla
from torch.utils.data import DataLoader, TensorDataset

X_all, Y_all = torch.rand(1000, 40), torch.rand(1000, 1)
X_test, Y_test = torch.rand(100, 40), torch.rand(100, 1)
model = nn.Linear(40, 1).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X_all = X_all.to(torch_xla.device())
Y_all = Y_all.to(torch_xla.device())
X_test = X_test.to(torch_xla.device())
loader = DataLoader(TensorDataset(torch.arange(1000)), batch_size=32, shuffle=True)


def train():
    device = torch_xla.device()
    for (indices,) in loader:
        indices = indices.to(device)
        x, y = X_all[indices], Y_all[indices]
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()


def evaluate():
    with torch.no_grad():
        return F.mse_loss(model(X_test), Y_test.to(torch_xla.device())).item()


for epoch in range(3):
    train()
    print(evaluate())
