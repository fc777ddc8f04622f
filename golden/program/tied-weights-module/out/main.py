# awd-lstm-lm's main.py: a function may rebind `model` with `global` (a resumed run loads it):
# what the move moves is not certain, the re-tie is reported in the script's terms.
import argparse

import torch
import model
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--tied", action="store_false")
parser.add_argument("--resume", default="")
args = parser.parse_args()


def model_load(fn):
    global model
    with open(fn, "rb") as f:
        model, _ = torch.load(f)


model = model.RNNModel(32, 8, tie_weights=args.tied)
if args.resume:
    model_load(args.resume)
model = model.to(torch_xla.device())
