# golden: target=neuron
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("nccl")
model = DDP(model, device_ids=[rank])
for x, y in loader:
    torch.nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
