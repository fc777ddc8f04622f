import os

import torch
import torch_xla

device = torch.device(os.environ["TRAIN_DEVICE"])
model = torch.nn.Linear(4, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(2, 4).to(device)).sum()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
