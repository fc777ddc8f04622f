import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_multiprocessing as xmp
import torch_xla.runtime as xr
from torch.utils.data.distributed import DistributedSampler
from torch_xla.distributed.fsdp import XlaFullyShardedDataParallel as FSDP


def _mp_fn(index, flags):
    device = xm.xla_device()
    sampler = DistributedSampler(
        train_set, num_replicas=xr.world_size(), rank=xr.global_ordinal(), shuffle=True
    )
    model = FSDP(Net().to(device))
    optimizer = torch.optim.SGD(model.parameters(), lr=flags.lr)
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.nll_loss(model(x), y)
        loss.backward()
        model.clip_grad_norm_(1.0)
        optimizer.step()
        xm.mark_step()


if __name__ == "__main__":
    xmp.spawn(_mp_fn, args=(FLAGS,))
