# Class: a device chosen by an option that another module defines (`opt = get_opt()` over
# `opts.parse_opts()`, a parser whose options are its parents'): the training script's own
# module has no `add_argument`, so only the program's run decides the flag. `--no_cuda` is off on
# every launch line (README.md), so the CUDA branch is the one that runs and becomes "xla".
# Twin: option-of-another-module-decides-device-twin (a launch line passes `--no_cuda`).
import argparse


def common_parser():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--no_cuda", action="store_true", help="train on the CPU")
    parser.add_argument("--lr", type=float, default=0.1)
    return parser


def parse_opts():
    parser = argparse.ArgumentParser("train", parents=[common_parser()])
    parser.add_argument("--epochs", type=int, default=3)
    return parser.parse_args()
