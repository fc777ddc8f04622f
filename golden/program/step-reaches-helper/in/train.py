import torch

from losses import compute_loss

model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = compute_loss(model, torch.randn(2, 4))
    loss.backward()
    optimizer.step()
