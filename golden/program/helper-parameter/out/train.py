import os

import torch
import torch_xla


def uniform(shape, device):
    return torch.rand(shape).to(device)


model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(uniform((2, 4), os.environ["TRAIN_DEVICE"])).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
