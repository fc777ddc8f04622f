import torch
import torch.distributed as dist
import torch_xla.distributed.xla_backend
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank, world_size):
    dist.init_process_group(backend="xla", rank=rank, world_size=world_size)
    model = DDP(Net().cuda(rank), device_ids=[rank], output_device=rank, find_unused_parameters=True)
    other = torch.nn.parallel.DistributedDataParallel(Net(), gradient_as_bucket_view=True)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        # DDP all-reduces in backward: the step stays as it is.
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
