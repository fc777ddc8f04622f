import argparse
import os

import torch
import torch.distributed as dist


def add_gpu_params(parser: argparse.ArgumentParser):
    parser.add_argument("--platform", default="local", type=str, help="platform cloud")
    parser.add_argument("--local_rank", default=0, type=int, help="local rank")
    parser.add_argument("--rank", default=0, type=int, help="rank")


def parse_gpu(args):
    torch.manual_seed(args.random_seed)
    if args.platform == "local":
        dist.init_process_group(backend="nccl")
        args.rank = dist.get_rank()
        args.world_size = dist.get_world_size()
    return args
