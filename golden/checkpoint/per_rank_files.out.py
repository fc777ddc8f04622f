import os

import torch
import torch.distributed as dist
import torch_xla
import torch_xla.core.xla_model as xm


def save_shards(model, optimizer, args):
    torch_xla.sync()
    xm.save(optimizer.state_dict(), f"optim_rank{dist.get_rank()}.pt", master_only=False)
    path = os.path.join(args.output_dir, f"model_{args.local_rank}.pt")
    torch_xla.sync()
    xm.save(model.state_dict(), path, master_only=False)
