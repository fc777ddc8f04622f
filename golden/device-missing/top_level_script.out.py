import torch
import torch_xla
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(torch_xla.device())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
loader = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(10)]

for x, y in loader:
    x, y = x.to(torch_xla.device()), y.to(torch_xla.device())
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
