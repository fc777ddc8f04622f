import torch
import torch.distributed as dist
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
from torch.distributed.optim import DistributedOptimizer


def run_trainer(rank):
    dist.init_process_group("gloo", rank=rank, world_size=2)
    rpc.init_rpc(f"trainer_{rank}", rank=rank, world_size=3)
    optimizer = torch.optim.SGD(local_model.parameters(), lr=0.05)
    for data, target in loader:
        with dist_autograd.context() as cid:
            loss = criterion(net(data), target)
            dist_autograd.backward(cid, [loss])
            optimizer.step()
