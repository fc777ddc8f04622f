import os

import torch
import torch.distributed as dist


def save_shards(model, optimizer, args):
    torch.save(optimizer.state_dict(), f"optim_rank{dist.get_rank()}.pt")
    path = os.path.join(args.output_dir, f"model_{args.local_rank}.pt")
    torch.save(model.state_dict(), path)
