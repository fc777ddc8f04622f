# Class: a statement between the imports (`import warnings` / `warnings.simplefilter(...)` /
# `import torch`) and two passes that each add `import torch_xla`: the second one's repeat is
# dropped, and so is the blank line it put after the first import (no stray blank line).
import warnings
warnings.simplefilter(action="ignore", category=FutureWarning)
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 4).cuda()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
