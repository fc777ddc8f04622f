import argparse

import torch


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--env-name", default="CartPole-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cuda", action="store_true", default=False)
    parser.add_argument("--cuda-deterministic", action="store_true", default=False)
    args = parser.parse_args()

    args.cuda = not args.no_cuda and torch.cuda.is_available()
    return args
