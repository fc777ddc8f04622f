import torch

from common.devices import torch_device

model = torch.nn.Linear(4, 4).to(torch_device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    batch = torch.randn(2, 4).to(torch_device)
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
