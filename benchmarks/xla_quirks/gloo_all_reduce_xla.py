"""torch-xla 2.9: on a gloo process group, a collective on XLA tensors returns without error and
exchanges nothing. Two processes each all-reduce (SUM) a tensor of ones times (rank + 1) on the
XLA device: each keeps its own values (1s and 2s) where the sum is 3s. A script that averages
its gradients by hand this way (`dist.all_reduce(grads); grads /= world_size`) trains each rank
alone on a fraction of the gradient, silently.

    PJRT_DEVICE=CPU python gloo_all_reduce_xla.py
    # rank 0: all_reduce(SUM) on gloo, XLA tensor: tensor([1., 1., 1., 1.]) (the sum is 3s)
    # rank 1: all_reduce(SUM) on gloo, XLA tensor: tensor([2., 2., 2., 2.]) (the sum is 3s)
"""

import os
import subprocess
import sys


def worker(rank: int) -> None:
    import torch
    import torch.distributed as dist
    import torch_xla

    dist.init_process_group("gloo", rank=rank, world_size=2)
    t = torch.ones(4, device=torch_xla.device()) * (rank + 1)
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    torch_xla.sync()
    print(f"rank {rank}: all_reduce(SUM) on gloo, XLA tensor: {t.cpu()} (the sum is 3s)")
    dist.destroy_process_group()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        worker(int(sys.argv[1]))
    else:
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT="29541")
        procs = [subprocess.Popen([sys.executable, __file__, str(r)], env=env) for r in range(2)]
        sys.exit(max(p.wait() for p in procs))
