# golden: select=TRN00,TRN13,TRN14,TRN10
import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_backend
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("xla", init_method="xla://")
device = "xla"
sampler = DistributedSampler(train_set, num_replicas=dist.get_world_size(), rank=dist.get_rank())
loader = DataLoader(train_set, batch_size=32, sampler=sampler, drop_last=True)
model = Net().to(device)
for epoch in range(2):
    sampler.set_epoch(epoch)
    for x, y in pl.MpDeviceLoader(loader, device):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        xm.reduce_gradients(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
