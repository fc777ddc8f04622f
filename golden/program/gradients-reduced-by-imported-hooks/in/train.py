# Class: a model made data parallel by a hand-written wrapper imported from another module of
# the program (`apply_gradient_allreduce`, whose backward hooks all-reduce every gradient in
# buckets: `grads = [p.grad.data ...]`, `coalesced = _flatten_dense_tensors(grads)`,
# `dist.all_reduce(coalesced)`). The gradients are reduced before the clip already:
# `xm.reduce_gradients(optimizer)` before it would reduce them a second time (TRN142 does not
# fire), and the optimizer step is kept. Twin (gradients-reduced-by-imported-hooks-twin): the
# imported helper only broadcasts the parameters, so the clip gets its reduce as before.
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
