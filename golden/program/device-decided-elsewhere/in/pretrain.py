import torch

from common.devices import autodetect_device_type

device = autodetect_device_type()
model = torch.nn.Linear(4, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    batch = torch.randn(2, 4).to(device)
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
