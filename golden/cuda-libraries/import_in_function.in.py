# Class: an import of a library that needs CUDA in a function: a warning (the run stops where
# the function is called), under a top-level condition too.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--fused", action="store_true")
args = parser.parse_args()


def forget_mult(f, x):
    import cupy
    from pynvrtc.compiler import Program

    return cupy, Program


if args.fused:
    import apex

model = torch.nn.Linear(4, 4)
