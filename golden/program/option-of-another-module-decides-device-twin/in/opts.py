# Twin of option-of-another-module-decides-device: every launch line passes `--no_cuda` (a
# `python main.py -h` line asks for the options and runs nothing: not a launch), so
# the program as documented trains on the CPU by the user's choice: the choice is reported
# (the flag must be off on Trainium) and the verdict says the model stays on the CPU.
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
