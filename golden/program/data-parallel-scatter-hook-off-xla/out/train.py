# Class: a subclass of nn.DataParallel whose scatter hook (and a module function only it calls)
# uses the CUDA runtime (`torch.cuda.Stream`). DataParallel calls its scatter, replicate,
# parallel_apply and gather hooks only with CUDA devices; on XLA `device_ids` is [] and the
# forward calls the module directly, so the stream is never made there: no blocker; and an
# instance of the subclass, which defines neither how it is built nor called, runs the module it
# wraps, as DataParallel does: the step runs on the accelerator. Found at
# first sight in a segmentation repository (ADE20K's UserScatteredDataParallel, a stream per
# GPU). Twin: data-parallel-scatter-hook-off-xla-twin, where the training loop itself makes the
# stream (a blocker).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_xla

from parallel import StreamedDataParallel

model = StreamedDataParallel(nn.Linear(4, 2)).to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch_xla.device()
for step in range(10):
    x, y = torch.randn(8, 4).to(device), torch.randint(0, 2, (8,)).to(device)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
