import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

loader = DataLoader(ds, batch_size=16, drop_last=True)
model = Model().to("xla")
for x, y in pl.MpDeviceLoader(loader, "xla"):
    batch_size = x.shape[0]
    x = x.view(batch_size, -1)
    loss = torch.nn.functional.nll_loss(model(x), y)
    loss.backward()
    optimizer.step()
