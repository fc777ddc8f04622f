# Twin of backend_literal_above_group: a backend name bound to something else too (a gloo
# fallback, an option), or only after the call, is not rewritten where it is written; the call
# is reported as before.
import os

import torch


def init_with_fallback(args):
    args.dist_backend = 'nccl'
    if os.environ.get("CPU_ONLY"):
        args.dist_backend = args.cpu_backend
    torch.distributed.init_process_group(backend=args.dist_backend, init_method=args.dist_url)


def init_then_name(args):
    torch.distributed.init_process_group(backend=args.backend, init_method=args.dist_url)
    args.backend = 'nccl'
