import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--compile", action="store_true", help="compile the model (off by default)")
parser.add_argument("--backend", default="inductor")
args = parser.parse_args()

model = torch.nn.Linear(4, 4)
if args.compile:
    # Opt-in: the default run does not compile, so a backend left to check is no blocker.
    model = torch.compile(model, backend=args.backend)
