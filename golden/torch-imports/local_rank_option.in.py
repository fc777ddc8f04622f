# Class: a parser that defines the launcher's rank option only as `--local_rank`, the spelling
# torch 1.x's `python -m torch.distributed.launch` passed. From torch 2.0 the launcher passes
# `--local-rank=<rank>`, which such a parser rejects (`unrecognized arguments`): the dashed
# spelling is added, the option keeps its name (`args.local_rank`). Found at first sight in a
# LoRA fine-tuning repository (its README launches GPT-2 training with torch.distributed.launch;
# measured: `unrecognized arguments: --local-rank=0`). Twin: local_rank_option_twin.
import argparse


def add_gpu_params(parser: argparse.ArgumentParser):
    parser.add_argument("--platform", default="k8s", type=str, help="platform cloud")
    parser.add_argument("--local_rank", default=0, type=int, help="local rank")
    parser.add_argument("--rank", default=0, type=int, help="rank")


def main():
    parser = argparse.ArgumentParser()
    add_gpu_params(parser)
    other = argparse.ArgumentParser()
    other.add_argument('-l', '--local_rank')
    return parser.parse_args(), other
