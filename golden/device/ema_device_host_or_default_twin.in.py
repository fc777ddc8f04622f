# Twin of ema_device_host_or_default: a device chosen between the host and CUDA (not the empty
# string) by a flag the file cannot decide (a `type=` function, no default) is still the
# training device: its CUDA side becomes the target's device and the flag's way is reported.
import argparse

import torch


def str2bool(v):
    return v.lower() in ("yes", "true", "1")


parser = argparse.ArgumentParser()
parser.add_argument("--on_cpu", type=str2bool)
args = parser.parse_args()

model = torch.nn.Linear(8, 2).to("cpu" if args.on_cpu else "cuda")
