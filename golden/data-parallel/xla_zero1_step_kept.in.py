import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_multiprocessing as xmp
from torch.utils.data.distributed import DistributedSampler
from torch_xla.distributed.zero_redundancy_optimizer import ZeroRedundancyOptimizer


def train(index):
    sampler = DistributedSampler(dataset)
    optimizer = ZeroRedundancyOptimizer(model.parameters(), torch.optim.AdamW, lr=1e-4)
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        xm.mark_step()


if __name__ == "__main__":
    xmp.spawn(train)
