import os

import torch

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --auto-cast=none"


def forward(model, x):
    with torch.autocast("xla", dtype=torch.bfloat16):
        return model(x)
