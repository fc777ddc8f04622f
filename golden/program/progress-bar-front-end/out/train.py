# Class: a loader wrapped in one of tqdm's front ends (`tqdm.notebook.tqdm`, `tqdm.auto.tqdm`,
# `tqdm.std.tqdm`): the bar yields the loader's own batches, wherever the loader puts them. Here
# the batches of a plain DataLoader are never moved: the inputs stay on the CPU.
import torch
import torch.nn as nn
import torch_xla
from tqdm.notebook import tqdm

device = torch_xla.device()
data = torch.utils.data.TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
loader = torch.utils.data.DataLoader(data, batch_size=8)
model = nn.Linear(4, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    for x, y in tqdm(loader, desc="Training", leave=False):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
