# Class: a statement between the imports (`import warnings` / `warnings.simplefilter(...)` /
# `import torch`) and two passes that each add `import torch_xla`: the second one's repeat is
# dropped, and so is the blank line it put after the first import (no stray blank line).
import warnings
warnings.simplefilter(action="ignore", category=FutureWarning)
import torch
import torch_xla

torch.manual_seed(0)
torch_xla.manual_seed(0)
model = torch.nn.Linear(4, 2).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch_xla.device()
for step in range(10):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
