# Twin of data-parallel-scatter-hook-off-xla: the training loop itself waits on the CUDA stream
# of device 0 (the same module function), which runs on every launch: torch.cuda.Stream raises
# without CUDA, a blocker that stops the script.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

from parallel import StreamedDataParallel, _get_stream

model = StreamedDataParallel(nn.Linear(4, 2)).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch_xla.device()
for step in range(10):
    x, y = torch.randn(8, 4).to(device), torch.randint(0, 2, (8,)).to(device)
    _get_stream(0).synchronize()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
