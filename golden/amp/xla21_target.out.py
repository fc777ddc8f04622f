# golden: target=xla-2.1
"""Module docstring."""
from __future__ import annotations

import os

import torch

os.environ["NEURON_CC_FLAGS"] = "--model-type=transformer"


def forward(model, x):
    with torch.autocast("xla", dtype=torch.bfloat16):
        return model(x)
