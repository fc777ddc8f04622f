# Twin of tied-weights-module: `model` no longer holds the module where `model.RNNModel` is
# read (a registry bound before it; a parameter of `build`), so the call is not known to build
# the tying class.
import argparse

import torch
import model
import torch_xla
from registry import load_registry

parser = argparse.ArgumentParser()
parser.add_argument("--tied", action="store_false")
args = parser.parse_args()

model = load_registry("zoo")
model = model.RNNModel(32, 8, 0.4, args.tied)
model.to(torch_xla.device())


def build(model, tied):
    # `model` is a parameter here, not the module.
    lm = model.RNNModel(32, 8, 0.4, tied)
    lm.to(torch_xla.device())
    return lm
