# Twin of gradients-reduced-by-imported-hooks: the imported helper only broadcasts the
# parameters (no all-reduce of gradients), so the clip gets `xm.reduce_gradients(optimizer)`
# before it, as in any data-parallel script.
import argparse

import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from distributed import apply_gradient_allreduce

parser = argparse.ArgumentParser()
parser.add_argument("--rank", type=int, default=0)
parser.add_argument("--world-size", type=int, default=1)
args = parser.parse_args()

if __name__ == "__main__":
    dist.init_process_group("gloo", rank=args.rank, world_size=args.world_size)
    device = torch_xla.device()
    model = apply_gradient_allreduce(torch.nn.Linear(4, 2).to(device))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(32, 4), torch.randn(32, 2))
    for x, y in pl.MpDeviceLoader(torch.utils.data.DataLoader(data, batch_size=8, drop_last=True), device):
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        xm.reduce_gradients(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
