# Twin of gradients-reduced-by-imported-hooks: the imported helper only broadcasts the
# parameters (no all-reduce of gradients), so the clip gets `xm.reduce_gradients(optimizer)`
# before it, as in any data-parallel script.
import argparse

import torch
import torch.distributed as dist
from distributed import apply_gradient_allreduce

parser = argparse.ArgumentParser()
parser.add_argument("--rank", type=int, default=0)
parser.add_argument("--world-size", type=int, default=1)
args = parser.parse_args()

if __name__ == "__main__":
    dist.init_process_group("gloo", rank=args.rank, world_size=args.world_size)
    device = torch.device("cuda")
    model = apply_gradient_allreduce(torch.nn.Linear(4, 2).to(device))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(32, 4), torch.randn(32, 2))
    for x, y in torch.utils.data.DataLoader(data, batch_size=8, drop_last=True):
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
